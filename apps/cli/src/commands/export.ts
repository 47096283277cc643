import { stripControl } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import { exportAppraisals, type OtlpProtocol } from '@mecha/otel';
import { homePorts } from '@mecha/stores';
import {
  type Command,
  type CommandGroup,
  exitCodes,
  refusalJson,
  refused,
  refusedCode,
  usageError,
} from '../command.js';
import { openCommandHome, readoutNow } from '../home.js';
import { flag, stringOption, wholeNumber } from '../parse-command.js';

const path = 'export otel';
const protocols: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];

const help = `Usage: mecha export otel --endpoint URL [--days N] [--protocol P] [--include-tests] [--json]

Exports the appraisal of each session, and of each of its runs, as OpenTelemetry spans over
OTLP/HTTP, so it shows in any OTLP backend (Langfuse, Arize Phoenix, a collector). Each span
carries the label, the positive and the negative side of the valence apart (never one netted
score), whether the evidence was partial, and the cite pointers; the same values arrive as
gen_ai.evaluation.result events. Span and trace ids are derived from the session and run ids:
exporting again sends the same spans, never new ones. Nothing in the home is written.
The attribute names, and what to filter on in Langfuse and Phoenix, are in docs/otel.md.

URL is the collector's base URL (http://localhost:4318, to which /v1/traces is added) or the
full traces URL (ending in /v1/traces). Headers (an API key) are read from
OTEL_EXPORTER_OTLP_HEADERS, as every OpenTelemetry exporter reads them.

Options:
  --endpoint URL     where to send the spans (required)
  --days N           only sessions begun within the last N days (default: all)
  --protocol P       http/protobuf (default) or http/json
  --include-tests    development (test) sessions too
  --json             print the outcome as JSON
  --home DIR         the mecha home to export from
  -h, --help         show this help

Progress goes to stderr. Exit codes: 0 exported, 1 the endpoint refused or could not be
reached (what was sent before it is said), 2 usage.
`;

const exportOtel: Command = {
  path,
  summary: 'export appraisals as OpenTelemetry spans over OTLP/HTTP (Langfuse, Phoenix, …)',
  help,
  takesNoArguments: true,
  options: {
    endpoint: { type: 'string' },
    days: { type: 'string' },
    protocol: { type: 'string' },
    'include-tests': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run({ values, context }) {
    const endpoint = stringOption(values, 'endpoint');
    if (endpoint === undefined) return usageError(context, path, '--endpoint URL is required');
    const daysText = stringOption(values, 'days');
    let days: number | undefined;
    if (daysText !== undefined) {
      const parsed = wholeNumber(daysText, '--days');
      if (isLeft(parsed)) return usageError(context, path, parsed.left.message);
      days = parsed.right;
    }
    const protocolText = stringOption(values, 'protocol') ?? 'http/protobuf';
    const protocol = protocols.find((known) => known === protocolText);
    if (protocol === undefined) {
      return usageError(
        context,
        path,
        `--protocol takes ${protocols.join(' or ')}, not ${JSON.stringify(protocolText)}`,
      );
    }
    const now = readoutNow(context);
    if (isLeft(now)) return usageError(context, path, now.left.message);
    const outcome = await exportAppraisals(homePorts(openCommandHome(context)), {
      endpoint,
      protocol,
      now: now.right,
      ...(days === undefined ? {} : { days }),
      includeTests: flag(values, 'include-tests'),
      progress: (sent, total) => context.stderr(`mecha ${path}: ${sent}/${total} sessions sent\n`),
    });
    if (flag(values, 'json')) {
      context.stdout(
        `${JSON.stringify(isLeft(outcome) ? refusalJson(outcome.left) : outcome.right, null, 2)}\n`,
      );
      if (isLeft(outcome)) {
        context.stderr(`mecha ${path}: ${stripControl(outcome.left.message)}\n`);
        return refusedCode(outcome.left);
      }
      return exitCodes.ok;
    }
    if (isLeft(outcome)) return refused(context, path, outcome.left);
    context.stdout(`${stripControl(outcome.right.line)}\n`);
    return exitCodes.ok;
  },
};

/** `mecha export`: the home's appraisals out to other tools (from @mecha/otel). */
export const exportGroup: CommandGroup = {
  name: 'export',
  summary: 'export appraisals to other tools: otel (OpenTelemetry over OTLP/HTTP)',
  commands: [exportOtel],
};
