// Test helpers for a Slack surface: a loopback fake of Slack's Web API and requests signed
// as Slack signs them. For tests only; nothing here is used by the app.
export type { FakeCall, FakeSlackApi } from './__fixtures__/fake-slack-api.js';
export { startFakeSlackApi } from './__fixtures__/fake-slack-api.js';
export { homeBytes } from './__fixtures__/home-bytes.js';
export type { SignedPost } from './__fixtures__/signed-request.js';
export { buttonTap, interaction, postSigned, slashCommand } from './__fixtures__/signed-request.js';
