/**
 * `browsertask init`: the files of a starter bundle (a task, a script, the three
 * config files with comments, and a one-page site it automates offline).
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ServiceError } from './errors.js';

/** Bundle path → content of every file `init` writes. */
export const STARTER_FILES: Readonly<Record<string, string>> = {
  'tasks/hello.task': `# A starter task: POST /tasks/hello
# It opens the bundle's own site (served by the /site static mount, see
# static-mounts.yaml) and extracts the list on it. SERVICE_BASE_URL is published by
# the service (and by \`browsertask run\`), so the task works on any host and port.
task "hello"
  timeout 20000
  transport rest
  transport sse
  input greeting string default "Hello" doc "Text the script puts in front of the page title"
  status "opening the starter page"
  goto "{{SERVICE_BASE_URL}}/site/index.html"
  wait until "#items li" timeout 5000
  extract items from "#items li" repeat
    name text ".name"
    price text ".price"
  end
  js headline fn "headline" args ["{{greeting}}"]
end
`,
  'scripts/headline.js': `// A js step module: a function body run in the page. arguments holds the step's
// args; the returned value is bound to the step's name.
return arguments[0] + ', ' + document.title + '!';
`,
  'pool.yaml': `# Window pools. Each tag pre-opens \`size\` browser windows at start-up; a task picks
# its pool with \`pool <tag>\` (default: \`default\`). \`persistent: true\` keeps a profile
# (cookies, storage) across restarts and needs size 1.
pools:
  default: { size: 1 }
`,
  'static-mounts.yaml': `# Static mounts: URL prefix -> directory. A relative dir resolves against the bundle
# root; \${NAME} and \${NAME:-fallback} expand from the environment at start-up.
mounts:
  - { prefix: /site, dir: "./site", list: true, serve: true }
  - { prefix: /files, dir: "\${SERVICE_DOWNLOADS_DIR:-./build/downloads}", list: true, serve: true, recursive: true }
`,
  'secrets.yaml': `# Secrets: resolved at start-up from the environment (\`env\`), a --NAME=value flag
# (\`arg\`) or a terminal prompt (\`prompt\`); recipes read them as {{NAME}}.
# \`sensitive: true\` keeps the value out of every log line.
secrets:
  - name: STARTER_TOKEN
    description: An example secret (not used by hello.task)
    sensitive: true
    default: change-me
    sources: [env, arg]
`,
  'site/index.html': `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Starter shop</title></head>
<body>
<h1>Starter shop</h1>
<ul id="items">
  <li><span class="name">Teapot</span> <span class="price">12.50</span></li>
  <li><span class="name">Kettle</span> <span class="price">24.00</span></li>
  <li><span class="name">Mug</span> <span class="price">6.75</span></li>
</ul>
</body>
</html>
`,
};

/**
 * Writes the starter bundle into `dir` (created if missing).
 * @throws ServiceError `ERR_SERVICE_EXISTS` naming every file that already exists
 * (nothing is written then).
 */
export async function writeStarterBundle(dir: string): Promise<string[]> {
  const paths = Object.keys(STARTER_FILES).sort();
  const existing: string[] = [];
  for (const p of paths) {
    if (await stat(join(dir, p)).catch(() => undefined)) existing.push(join(dir, p));
  }
  if (existing.length > 0) {
    throw new ServiceError(
      'ERR_SERVICE_EXISTS',
      `refusing to overwrite existing file(s): ${existing.join(', ')}`,
    );
  }
  for (const p of paths) {
    const full = join(dir, p);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, STARTER_FILES[p]!, { flag: 'wx' });
  }
  return paths;
}
