/** One captured frame: a PNG and when it was shown, in ms since capture started. */
export interface Frame {
  /** PNG bytes. Consecutive duplicates may share one Buffer. */
  png: Buffer;
  /** Milliseconds since the capture started (multiples of 1000 / fps for a screencast). */
  timestampMs: number;
}
