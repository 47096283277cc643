import { type Draw, hour, iso, minute } from './draw.js';
import type { HomeWriter } from './home-writer.js';

/** The front door (`frontdoor/requests.jsonl`): a few sessions answer a request received before. */
export function receiveRequest(draw: Draw, writer: HomeWriter, startedAt: number) {
  const { random, id } = draw;
  const requestId = random.chance(0.08) ? id('req') : undefined;
  if (requestId !== undefined) {
    const receivedAt = startedAt - random.int(1, 30) * minute;
    writer.add(receivedAt, 'requests', {
      v: 1,
      type: 'received',
      at: iso(receivedAt),
      request_id: requestId,
    });
  }
  return requestId;
}

/** The request's session triages it, links its first draft; then it closes, waits or stays open. */
export function settleRequest(
  draw: Draw,
  writer: HomeWriter,
  session: {
    readonly requestId: string;
    readonly sessionId: string;
    readonly startedAt: number;
    readonly endedAt: number;
    readonly linkedDraft: string | undefined;
  },
): void {
  const { random } = draw;
  const { requestId, sessionId, startedAt, endedAt, linkedDraft } = session;
  writer.add(startedAt, 'requests', {
    v: 1,
    type: 'triaged',
    at: iso(startedAt),
    request_id: requestId,
    session_id: sessionId,
  });
  if (linkedDraft !== undefined) {
    writer.add(endedAt, 'requests', {
      v: 1,
      type: 'draft_linked',
      at: iso(endedAt),
      request_id: requestId,
      draft_id: linkedDraft,
    });
  }
  const fate = random.weighted([
    ['closed', 60],
    ['needs_info', 15],
    ['open', 25],
  ] as const);
  if (fate !== 'open') {
    const at = endedAt + random.int(1, 96) * hour;
    writer.add(at, 'requests', { v: 1, type: fate, at: iso(at), request_id: requestId });
  }
}
