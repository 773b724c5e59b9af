/**
 * The action catalogue: every step a recipe can run, keyed by its canonical `run` name
 * (the name used in webtasks' YAML TaskDef), with its parameters, their types and defaults.
 *
 * This table is the single source of truth shared by the parser (validation, defaults,
 * YAML form) and the runner (dispatch, coercion of templated values at run time).
 */

/**
 * Type of one action parameter. Templated strings (`"{{n}}"`, `"1_500"`) are accepted for
 * every type at parse time and coerced at run time, as webtasks does.
 */
export type ParamType = 'string' | 'int' | 'number' | 'bool' | 'list' | 'map' | 'any';

/** Description of one parameter of an action. */
export interface ParamSpec {
  readonly type: ParamType;
  /** The step fails validation when a required parameter is missing. */
  readonly required?: boolean;
  /** Value used when the parameter is omitted. */
  readonly default?: unknown;
  /** Allowed values (compared case-sensitively after templating). */
  readonly enum?: readonly string[];
  /** One line for docs and error messages. */
  readonly doc?: string;
}

/** How a step's children are written: none, `do:` child steps, or extract field lines. */
export type BlockKind = 'none' | 'steps' | 'fields';

/** Description of one action. */
export interface ActionSpec {
  /** Canonical `run` name in the YAML TaskDef. */
  readonly run: string;
  /** Whether the action opens a block closed by `end`. */
  readonly block: BlockKind;
  /** Whether the step writes a file or binds a capture: at least one of `path`/`as` is required. */
  readonly needsPathOrName?: boolean;
  readonly params: Readonly<Record<string, ParamSpec>>;
  readonly doc: string;
}

const pdfParams = {
  format: {
    type: 'string',
    enum: ['A4', 'A3', 'Letter', 'Legal', 'a4', 'a3', 'letter', 'legal'],
    doc: 'Paper size.',
  },
  landscape: { type: 'bool', default: false, doc: 'Landscape orientation.' },
  printBackground: { type: 'bool', default: true, doc: 'Print background graphics.' },
  scale: { type: 'number', doc: 'Render scale.' },
  pageRanges: { type: 'string', doc: 'Pages to print, e.g. "1-3,5".' },
  path: { type: 'string', doc: 'Write the PDF to this file.' },
} as const satisfies Record<string, ParamSpec>;

/** Every action, keyed by canonical run name. */
export const ACTIONS = {
  goto: {
    run: 'goto',
    block: 'none',
    doc: 'Navigate the window to a URL.',
    params: { url: { type: 'string', required: true, doc: 'Absolute URL (templated).' } },
  },
  wait: {
    run: 'wait',
    block: 'none',
    doc: 'Sleep for a fixed duration.',
    params: { duration: { type: 'int', required: true, doc: 'Milliseconds.' } },
  },
  'wait-for': {
    run: 'wait-for',
    block: 'none',
    doc: 'Wait until a CSS selector is present in the DOM (`wait until`).',
    params: {
      selector: { type: 'string', required: true, doc: 'CSS selector.' },
      timeoutMs: { type: 'int', default: 10000, doc: 'Fail after this many ms.' },
    },
  },
  'wait-for-network-idle': {
    run: 'wait-for-network-idle',
    block: 'none',
    doc: 'Wait until in-flight requests stay quiet (`wait-network-idle`).',
    params: {
      idleMs: { type: 'int', default: 500, doc: 'Required quiet window (ms).' },
      timeoutMs: { type: 'int', default: 15000, doc: 'Give up after this long.' },
      maxInflight: { type: 'int', default: 0, doc: 'At most this many requests count as idle.' },
    },
  },
  sendkeys: {
    run: 'sendkeys',
    block: 'none',
    doc: 'Focus an element and type text into it.',
    params: {
      selector: { type: 'string', required: true, doc: 'The field to type into.' },
      keys: { type: 'string', required: true, doc: 'Text to type (templated).' },
    },
  },
  action: {
    run: 'action',
    block: 'none',
    doc: 'A trusted click on a selector, or on the first match whose visible text matches (`click`).',
    params: {
      action: { type: 'string', default: 'click', enum: ['click'], doc: 'Only `click`.' },
      selector: { type: 'string', required: true, doc: 'Element to click, or to match by text.' },
      text: { type: 'string', doc: 'Click the first match whose visible text matches.' },
      match: {
        type: 'string',
        default: 'exact',
        enum: ['exact', 'contains'],
        doc: 'Text matching mode.',
      },
      closest: { type: 'string', doc: 'Retarget the click to the nearest ancestor matching this.' },
    },
  },
  'scroll-until-stable': {
    run: 'scroll-until-stable',
    block: 'none',
    doc: 'Scroll a container until its scrollHeight stops changing.',
    params: {
      selector: { type: 'string', required: true, doc: 'The scrollable container.' },
      direction: { type: 'string', default: 'up', enum: ['up', 'down'], doc: 'Scroll direction.' },
      stableMs: { type: 'int', default: 1500, doc: 'Stop once the height is unchanged this long.' },
      maxIterations: { type: 'int', default: 0, doc: 'Cap on scroll steps; 0 = unbounded.' },
    },
  },
  js: {
    run: 'js',
    block: 'none',
    doc: 'Run a function body in the page: a module under scripts/ (`fn`) or inline (`script`).',
    params: {
      fn: { type: 'string', doc: 'Module path under scripts/ (`.js` optional).' },
      script: { type: 'string', doc: 'Inline function body.' },
      args: { type: 'list', default: [], doc: 'Values passed as `arguments`.' },
      await: { type: 'bool', default: false, doc: 'Await a returned promise.' },
    },
  },
  extract: {
    run: 'extract',
    block: 'fields',
    doc: 'Turn rendered HTML into JSON with a CSS field spec.',
    params: {
      selector: { type: 'string', required: true, doc: 'The row(s) to harvest.' },
      repeat: { type: 'bool', default: false, doc: 'One record per match (a list).' },
      fields: {
        type: 'map',
        required: true,
        doc: 'Field name → {kind, selector, name, value, transform}.',
      },
    },
  },
  screenshot: {
    run: 'screenshot',
    block: 'none',
    needsPathOrName: true,
    doc: 'Capture the viewport, the full page or one element.',
    params: {
      selector: { type: 'string', default: '.', doc: '`.` = viewport; a selector = that element.' },
      fullPage: { type: 'bool', default: false, doc: 'Capture the whole scrollable page.' },
      format: { type: 'string', default: 'png', enum: ['png', 'jpeg'], doc: 'Image format.' },
      quality: { type: 'int', doc: 'JPEG quality 0-100.' },
      path: { type: 'string', doc: 'Write the image to this file.' },
    },
  },
  pdf: {
    run: 'pdf',
    block: 'none',
    needsPathOrName: true,
    doc: 'Render the current page to PDF.',
    params: pdfParams,
  },
  'html-to-pdf': {
    run: 'html-to-pdf',
    block: 'none',
    needsPathOrName: true,
    doc: 'Render an HTML string or file to PDF.',
    params: {
      html: { type: 'string', doc: 'Inline HTML source.' },
      file: { type: 'string', doc: 'HTML file (used when `html` is absent).' },
      css: { type: 'string', doc: 'CSS injected as a <style> prelude.' },
      ...pdfParams,
    },
  },
  snapshot: {
    run: 'snapshot',
    block: 'none',
    needsPathOrName: true,
    doc: 'Capture an MHTML single-file archive of the page.',
    params: { path: { type: 'string', doc: 'Write the archive to this file.' } },
  },
  emulate: {
    run: 'emulate',
    block: 'none',
    doc: 'Override viewport metrics and emulated media; persists on the window until reset.',
    params: {
      width: { type: 'int', doc: 'Viewport width.' },
      height: { type: 'int', doc: 'Viewport height.' },
      deviceScaleFactor: { type: 'number', default: 1, doc: 'Device pixel ratio.' },
      mobile: { type: 'bool', default: false, doc: 'Mobile emulation.' },
      colorScheme: {
        type: 'string',
        enum: ['light', 'dark', 'no-preference'],
        doc: 'Emulated colour scheme.',
      },
      reset: { type: 'bool', default: false, doc: 'Clear all overrides.' },
    },
  },
  record: {
    run: 'record',
    block: 'steps',
    needsPathOrName: true,
    doc: 'Screencast while the children run, encoded as GIF or MP4.',
    params: {
      format: { type: 'string', default: 'gif', enum: ['gif', 'mp4'], doc: 'Output format.' },
      fps: { type: 'int', default: 5, doc: 'Frames per second.' },
      quality: { type: 'int', default: 80, doc: 'Encoder quality 1-100.' },
      maxFrames: { type: 'int', default: 300, doc: 'Hard cap on frames.' },
      maxDurationMs: { type: 'int', default: 30000, doc: 'Hard cap on wall-clock time.' },
      path: { type: 'string', doc: 'Write the media to this file.' },
      fallback: {
        type: 'string',
        enum: ['gif'],
        doc: 'browsertask: encode GIF when MP4 is impossible (no ffmpeg).',
      },
    },
  },
  'capture-network': {
    run: 'capture-network',
    block: 'steps',
    doc: 'Record request/response entries while the children run.',
    params: {
      includeBodies: { type: 'bool', default: false, doc: 'Capture response bodies.' },
      maxBodyBytes: { type: 'int', default: 65536, doc: 'Truncate bodies past this size.' },
      urlFilter: { type: 'string', doc: 'Only URLs containing this substring.' },
      path: { type: 'string', doc: 'Write the entries as JSON to this file.' },
    },
  },
  console: {
    run: 'console',
    block: 'steps',
    doc: 'Collect console messages while the children run.',
    params: {},
  },
  'get-cookies': {
    run: 'get-cookies',
    block: 'none',
    doc: 'Read the window cookies.',
    params: {
      urls: { type: 'list', doc: 'Only cookies for these URLs.' },
      path: { type: 'string', doc: 'Write the cookie list as JSON to this file.' },
    },
  },
  'set-cookies': {
    run: 'set-cookies',
    block: 'none',
    doc: 'Install cookies, inline or from a JSON file.',
    params: {
      cookies: { type: 'any', doc: 'List of cookies.' },
      file: { type: 'string', doc: 'JSON file holding a cookie list.' },
    },
  },
  'http-request': {
    run: 'http-request',
    block: 'none',
    doc: 'An outbound HTTP call with no browser involved (`http-get`, `http-post`).',
    params: {
      method: {
        type: 'string',
        default: 'GET',
        enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'],
        doc: 'HTTP method.',
      },
      url: { type: 'string', required: true, doc: 'Target URL.' },
      headers: { type: 'map', doc: 'Header name → value.' },
      body: { type: 'any', doc: 'String, or a map/list sent as JSON.' },
      timeoutMs: { type: 'int', default: 30000, doc: 'Request timeout.' },
    },
  },
  'download-each': {
    run: 'download-each',
    block: 'none',
    doc: 'Click every match in DOM order and collect each download.',
    params: {
      selector: { type: 'string', required: true, doc: 'Elements to click.' },
      timeoutPerFileMs: { type: 'int', default: 30000, doc: 'Per-file timeout.' },
    },
  },
  'save-captures-to-dir': {
    run: 'save-captures-to-dir',
    block: 'none',
    doc: 'Drain blobs buffered by an in-page URL.createObjectURL hook to disk.',
    params: {
      dir: { type: 'string', required: true, doc: 'Output directory.' },
      naming: {
        type: 'string',
        default: '{id}_{name}',
        doc: 'File name template: {id} {name} {ext} {mime} {size} {ts}.',
      },
    },
  },
  'for-each': {
    run: 'for-each',
    block: 'steps',
    doc: 'Run the children once per item of a list.',
    params: {
      over: { type: 'any', required: true, doc: 'The list, usually "{{ref}}".' },
      as: {
        type: 'string',
        default: 'item',
        doc: 'Name bound to the current item; `<as>_index` holds its index.',
      },
      continueOnError: {
        type: 'bool',
        default: false,
        doc: 'A failing iteration emits an error event and the loop goes on.',
      },
    },
  },
  loop: {
    run: 'loop',
    block: 'steps',
    doc: 'Repeat the children while/until a JS condition holds.',
    params: {
      while: { type: 'string', doc: 'Inline JS condition: loop while truthy.' },
      until: { type: 'string', doc: 'Inline JS condition: loop until truthy.' },
      whileFn: { type: 'string', doc: 'JS module condition: loop while truthy.' },
      untilFn: { type: 'string', doc: 'JS module condition: loop until truthy.' },
      pauseMs: { type: 'int', default: 1000, doc: 'Pause between iterations.' },
      maxIterations: { type: 'int', default: 1000, doc: 'Safety cap.' },
    },
  },
  call: {
    run: 'call',
    block: 'none',
    doc: "Run another task's flow in the current window with the current bindings.",
    params: { task: { type: 'string', required: true, doc: 'Slug of the task to run.' } },
  },
  return: {
    run: 'return',
    block: 'none',
    doc: 'Make `value` the whole response data and stop.',
    params: { value: { type: 'any', required: true, doc: 'Template or flow value.' } },
  },
  set: {
    run: 'set',
    block: 'none',
    doc: 'Bind a literal or templated value to a name.',
    params: {
      name: { type: 'string', required: true, doc: 'Binding name.' },
      value: { type: 'any', required: true, doc: 'Template or flow value.' },
    },
  },
  export: {
    run: 'export',
    block: 'none',
    doc: 'Render records as CSV, NDJSON or a markdown table.',
    params: {
      format: {
        type: 'string',
        required: true,
        enum: ['csv', 'ndjson', 'md', 'markdown', 'md-table'],
        doc: 'Output format.',
      },
      data: { type: 'any', required: true, doc: 'The records, usually "{{ref}}".' },
      columns: { type: 'list', doc: 'Column order; default the sorted union of keys.' },
      path: { type: 'string', doc: 'Write the text to this file.' },
    },
  },
  'read-file': {
    run: 'read-file',
    block: 'none',
    doc: 'Read a text file into the result.',
    params: {
      path: { type: 'string', required: true, doc: 'File to read.' },
      optional: {
        type: 'bool',
        default: false,
        doc: 'A missing file gives "" instead of an error.',
      },
    },
  },
  'write-files': {
    run: 'write-files',
    block: 'none',
    doc: 'Write many files under a root directory.',
    params: {
      root: { type: 'string', required: true, doc: 'Base directory.' },
      files: { type: 'any', required: true, doc: 'List of {path, content} or {path, bytesB64}.' },
    },
  },
  'save-html': {
    run: 'save-html',
    block: 'none',
    doc: "Write an element's outerHTML to a file.",
    params: {
      selector: { type: 'string', default: '.', doc: '`.` = whole document.' },
      path: { type: 'string', required: true, doc: 'Destination file.' },
    },
  },
  'emit-event': {
    run: 'emit-event',
    block: 'none',
    doc: 'Emit an event to SSE callers (`emit`, `status`); a no-op for synchronous callers.',
    params: {
      kind: { type: 'string', default: 'status', doc: 'Event kind: status, progress or any name.' },
      text: { type: 'string', default: '', doc: 'Human-readable message (templated).' },
      data: { type: 'any', doc: 'Structured payload.' },
    },
  },
} as const satisfies Record<string, ActionSpec>;

/** Canonical run name of an action. */
export type ActionName = keyof typeof ACTIONS;

/** Every canonical run name, sorted. */
export const ACTION_NAMES = Object.keys(ACTIONS).sort() as ActionName[];

/** Whether `name` is a canonical run name. */
export function isActionName(name: string): name is ActionName {
  return Object.hasOwn(ACTIONS, name);
}
