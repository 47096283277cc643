export type { SlackCheck, SlackCheckFailed, SlackCheckPassed } from './check-slack.js';
export { checkSlack } from './check-slack.js';
export type { Delivery, MechaReceiverOptions, ReceiverLog } from './mecha-receiver.js';
export { deliveryKey, MechaReceiver } from './mecha-receiver.js';
export type { RunEndPost, RunThread } from './post-run-end.js';
export { postRunEndContextLine, runEndLine, runEndMessage } from './post-run-end.js';
export { runEndContextLine } from './run-end-context-line.js';
export type { RunningSlackApp, SlackAppOptions } from './slack-app.js';
export { redactingLog, startSlackApp } from './slack-app.js';
export type { SlackConfig, SlackConfigIssue } from './slack-config.js';
export { slackConfigFromEnv } from './slack-config.js';
export type { SlackLedger, SlackLedgerEntry } from './slack-ledger.js';
export { readSlackLedger, slackLedgerFile } from './slack-ledger.js';
export type { SlackMessage } from './slack-messages.js';
export { actionIds, slackText } from './slack-messages.js';
export type { SlashRequest } from './slash-command.js';
export { parseSlash, splitWords } from './slash-command.js';
export type { RequestRefusal, RequestRefused, SignedRequest } from './verify-slack-request.js';
export {
  signatureWindowSeconds,
  slackSignature,
  verifySlackRequest,
} from './verify-slack-request.js';
export type { HomeWatcher, WatchOptions, WatchTick } from './watch-home.js';
export { watchHome } from './watch-home.js';
