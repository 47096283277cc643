import { fileURLToPath } from 'node:url';
import { bundleForBrowser } from '@mecha/vitest-config/browser-bundle';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const ownerEntry = fileURLToPath(new URL('../dist/owner.js', import.meta.url));

describe('the built @mecha/charter', () => {
  it('exposes exactly its public surface, with no way to mint a capability', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'CharterArgumentError',
      'addLine',
      'anticipatedGuilt',
      'appraiseCommitment',
      'appraiseCommitments',
      'charterLineSchema',
      'charterSchema',
      'charterSensors',
      'clearLineSensor',
      'clearLineSetpoint',
      'commitmentAge',
      'commitmentStores',
      'defaultPatience',
      'excess',
      'formatDuration',
      'isCharterSensor',
      'isOwnerEdit',
      'moveLine',
      'parseCharter',
      'parseDuration',
      'patienceOf',
      'rankWeight',
      'removeLine',
      'sensorForStore',
      'setLineSensor',
      'setLineSetpoint',
      'setLineText',
      'stringifyCharter',
      'unwatchedWeight',
      'validateCharter',
    ]);
  });

  it('bundles for a browser with no Node module', async () => {
    const result = await bundleForBrowser(entry);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describe('the built @mecha/charter/owner', () => {
  it('exposes only the mint', async () => {
    const api = await import(ownerEntry);
    expect(Object.keys(api).sort()).toEqual(['mintOwnerEdit']);
  });

  it('bundles for a browser with no Node module', async () => {
    const result = await bundleForBrowser(ownerEntry);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('mints capabilities the main entry accepts, sharing one record of what was minted', async () => {
    const { mintOwnerEdit } = await import(ownerEntry);
    const { addLine, isOwnerEdit } = await import(entry);
    const edit = mintOwnerEdit('tui', 'sam');
    expect(isOwnerEdit(edit)).toBe(true);
    expect(addLine(edit, [], { id: 'a', text: 'x' })).toEqual(E.right([{ id: 'a', text: 'x' }]));
    expect(addLine({ ...edit }, [], { id: 'a', text: 'x' })).toMatchObject(
      E.left({ code: 'forged_capability' }),
    );
  });
});
