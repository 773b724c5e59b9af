import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

/** The video stream ffprobe sees in an MP4 (ffprobe must accept the file). */
export async function probeMp4(mp4: Buffer): Promise<{
  codec_name: string;
  width: number;
  height: number;
  pix_fmt: string;
  nb_frames: string;
  r_frame_rate: string;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'recorder-probe-'));
  try {
    const file = join(dir, 'probe.mp4');
    await writeFile(file, mp4);
    const { stdout } = await execa(
      'ffprobe',
      ['-v', 'error', '-show_streams', '-of', 'json', file],
      {
        timeout: 30_000,
      },
    );
    const streams = (JSON.parse(stdout) as { streams: { codec_type: string }[] }).streams;
    const video = streams.find((s) => s.codec_type === 'video');
    if (!video) throw new Error('no video stream');
    return video as never;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
