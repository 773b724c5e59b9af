/** The dispatch table: one implementation per ACTIONS entry (checked by the type). */
import type { ActionName } from '@browsertask/recipe-parser';
import type { ActionImpl } from '../context.js';
import { recordAction } from '../recording.js';
import {
  htmlToPdfAction,
  emulateAction,
  pdfAction,
  saveHtmlAction,
  screenshotAction,
  snapshotAction,
} from './capture.js';
import {
  callAction,
  emitEventAction,
  forEachAction,
  loopAction,
  returnAction,
  setAction,
} from './control.js';
import { exportAction, readFileAction, writeFilesAction } from './data.js';
import { downloadEachAction, saveCapturesToDirAction } from './downloads.js';
import { extractAction } from './extract.js';
import {
  clickAction,
  gotoAction,
  scrollUntilStableAction,
  sendkeysAction,
  waitAction,
  waitForAction,
  waitForNetworkIdleAction,
} from './navigation.js';
import {
  captureNetworkAction,
  consoleAction,
  getCookiesAction,
  httpRequestAction,
  setCookiesAction,
} from './network.js';
import { jsAction } from './script.js';

/** Every action's implementation, keyed by canonical run name. */
export const ACTION_IMPLS: Readonly<Record<ActionName, ActionImpl>> = {
  goto: gotoAction,
  wait: waitAction,
  'wait-for': waitForAction,
  'wait-for-network-idle': waitForNetworkIdleAction,
  sendkeys: sendkeysAction,
  action: clickAction,
  'scroll-until-stable': scrollUntilStableAction,
  js: jsAction,
  extract: extractAction,
  screenshot: screenshotAction,
  pdf: pdfAction,
  'html-to-pdf': htmlToPdfAction,
  snapshot: snapshotAction,
  emulate: emulateAction,
  record: recordAction,
  'capture-network': captureNetworkAction,
  console: consoleAction,
  'get-cookies': getCookiesAction,
  'set-cookies': setCookiesAction,
  'http-request': httpRequestAction,
  'download-each': downloadEachAction,
  'save-captures-to-dir': saveCapturesToDirAction,
  'for-each': forEachAction,
  loop: loopAction,
  call: callAction,
  return: returnAction,
  set: setAction,
  export: exportAction,
  'read-file': readFileAction,
  'write-files': writeFilesAction,
  'save-html': saveHtmlAction,
  'emit-event': emitEventAction,
};
