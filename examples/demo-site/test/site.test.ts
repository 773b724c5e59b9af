// The demo site is self-contained (works offline) and has what the example tasks use.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const root = fileURLToPath(new URL('../public', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

test('every link, script and stylesheet is local and exists', () => {
  const pages = files(root).filter((f) => f.endsWith('.html'));
  assert.ok(pages.length >= 8);
  for (const page of pages) {
    const html = readFileSync(page, 'utf8');
    for (const [, ref] of html.matchAll(/(?:href|src)="([^"#]+)(?:[?#][^"]*)?"/g)) {
      assert.doesNotMatch(ref!, /^(https?:)?\/\//, `${relative(root, page)} loads ${ref} remotely`);
      const target = join(dirname(page), ref!.split('?')[0]!);
      assert.ok(
        statSync(target, { throwIfNoEntry: false }),
        `${relative(root, page)} → ${ref} missing`,
      );
    }
  }
});

test('three quote pages of ten quotes, chained by li.next', () => {
  for (const n of [1, 2, 3]) {
    const html = readFileSync(join(root, 'quotes', `page-${n}.html`), 'utf8');
    assert.equal(html.match(/class="quote"/g)?.length, 10);
    assert.equal(html.includes(`href="page-${n + 1}.html"`), n < 3);
  }
});

test('download links carry the download attribute', () => {
  const html = readFileSync(join(root, 'downloads.html'), 'utf8');
  assert.equal(html.match(/class="download" href="files\/[^"]+" download=/g)?.length, 2);
});

test('the sign-in page holds a hash of the demo password, never the password', () => {
  const page =
    readFileSync(join(root, 'login.html'), 'utf8') + readFileSync(join(root, 'login.js'), 'utf8');
  assert.doesNotMatch(page, /correct-horse/);
  const hash = createHash('sha256').update('correct-horse').digest('hex');
  assert.ok(page.includes(hash));
  const account = readFileSync(join(root, 'account.html'), 'utf8');
  assert.equal(account.match(/class="order"/g)?.length, 3);
  assert.ok(account.includes('id="signin-required"'));
});
