import {
  InputGuardrailTripwireTriggered,
  MaxTurnsExceededError,
  ModelTimeoutError,
  OutputGuardrailTripwireTriggered,
  UserError,
} from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { stopCauseOfError } from './record-openai-agents.js';

describe('stopCauseOfError', () => {
  it("reads the SDK's own error classes", () => {
    const guardrail = {
      guardrail: { name: 'g' },
      output: { tripwireTriggered: true, outputInfo: {} },
    };
    expect(stopCauseOfError(new MaxTurnsExceededError('max'))).toEqual({ cause: 'turn_ceiling' });
    expect(
      stopCauseOfError(new InputGuardrailTripwireTriggered('tripped', guardrail as never)),
    ).toEqual({ cause: 'error', counter: 'guardrail_tripwire' });
    expect(
      stopCauseOfError(new OutputGuardrailTripwireTriggered('tripped', guardrail as never)),
    ).toEqual({ cause: 'error', counter: 'guardrail_tripwire' });
    expect(stopCauseOfError(new ModelTimeoutError({ timeoutMs: 5 }))).toEqual({
      cause: 'interrupted',
    });
    expect(stopCauseOfError(new UserError('bad'))).toEqual({ cause: 'error' });
    expect(stopCauseOfError('not even an error')).toEqual({ cause: 'error' });
  });
});
