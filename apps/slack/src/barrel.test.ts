import { describe, expect, it } from 'vitest';

// Paths held in variables: the test reads what was built, not the sources.
const entry = new URL('../dist/index.js', import.meta.url).href;
const testing = new URL('../dist/testing.js', import.meta.url).href;

describe('the built @mecha/slack', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'MechaReceiver',
      'actionIds',
      'checkSlack',
      'deliveryKey',
      'parseSlash',
      'postRunEndContextLine',
      'readSlackLedger',
      'redactingLog',
      'runEndContextLine',
      'runEndLine',
      'runEndMessage',
      'signatureWindowSeconds',
      'slackConfigFromEnv',
      'slackLedgerFile',
      'slackSignature',
      'slackText',
      'splitWords',
      'startSlackApp',
      'verifySlackRequest',
      'watchHome',
    ]);
  });

  it('keeps its test helpers behind the testing subpath', async () => {
    const api = await import(testing);
    expect(Object.keys(api).sort()).toEqual([
      'buttonTap',
      'homeBytes',
      'interaction',
      'postSigned',
      'slashCommand',
      'startFakeSlackApi',
    ]);
  });
});
