import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { boardStyleSource } from '../views/board-style.js';

/** The names a Host header may carry when the board serves loopback only. */
const loopbackNames = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Whether a bind address or host name is the loopback interface. */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return (
    loopbackNames.has(name) ||
    /^127(?:\.\d{1,3}){3}$/.test(name) ||
    name.endsWith('.localhost') ||
    name === 'localhost.'
  );
}

/** The host name of a Host header (`[::1]:8080` → `[::1]`, `a.b:80` → `a.b`), lower-cased. */
export function hostNameOf(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/** Compares two secrets in constant time (hashed first, so lengths do not leak either). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A fresh random token (CSRF or bearer), URL-safe. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** What the guard enforces; see docs/web.md, "Security". */
export interface GuardOptions {
  /** Host names (besides loopback ones) a request's Host header may carry: the `--host` given; `*` for any. */
  readonly allowedHosts: readonly string[];
  /** The CSRF token every state-changing request must carry (form field `csrf`). */
  readonly csrfToken: string;
  /** When set, every request needs it: `Authorization: Bearer …` or the cookie it sets. */
  readonly bearerToken?: string;
}

const tokenCookie = 'mecha_web_token';

function refuse(status: 400 | 401 | 403 | 421, text: string): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * The board's request guard, in order: the Host header must be a loopback name or an allowed
 * host (DNS-rebinding guard); with a bearer token, every request must carry it; a
 * state-changing request must come from this origin (Origin, else Sec-Fetch-Site) and carry
 * the CSRF token. A refused request reaches no handler, so nothing is written.
 */
export function guard(options: GuardOptions): MiddlewareHandler {
  const allowed = new Set(options.allowedHosts.map((host) => hostNameOf(host)));
  return async (context, next) => {
    // The node server builds the request's URL from its Host header; in process there is no
    // header, and the URL's host stands for it.
    const hostHeader = context.req.header('host') ?? new URL(context.req.url).host;
    if (hostHeader === '') {
      return refuse(400, 'mecha web: refused: the request has no Host header');
    }
    const hostName = hostNameOf(hostHeader);
    if (!isLoopback(hostName) && !allowed.has(hostName) && !allowed.has('*')) {
      return refuse(
        421,
        `mecha web: refused: Host ${JSON.stringify(hostHeader.slice(0, 200))} is not this board's (start it with --host to serve that name)`,
      );
    }

    if (options.bearerToken !== undefined) {
      const url = new URL(context.req.url);
      const offered = url.searchParams.get('token');
      if (context.req.method === 'GET' && offered !== null) {
        if (!sameSecret(offered, options.bearerToken)) {
          return refuse(401, 'mecha web: refused: that token is not this board’s');
        }
        // The token travels once in the printed link; after that it is an HttpOnly cookie.
        setCookie(context, tokenCookie, offered, {
          httpOnly: true,
          sameSite: 'Strict',
          path: '/',
          secure: url.protocol === 'https:',
        });
        url.searchParams.delete('token');
        return context.redirect(`${url.pathname}${url.search}`, 303);
      }
      const authorization = context.req.header('authorization') ?? '';
      const bearer = authorization.startsWith('Bearer ')
        ? authorization.slice('Bearer '.length).trim()
        : undefined;
      const cookie = getCookie(context, tokenCookie);
      const presented = bearer ?? cookie;
      if (presented === undefined || !sameSecret(presented, options.bearerToken)) {
        return refuse(
          401,
          'mecha web: refused: this board needs its token (open the link `mecha web` printed, or send Authorization: Bearer TOKEN)',
        );
      }
    }

    const method = context.req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      const origin = context.req.header('origin');
      const ownOrigin = `${new URL(context.req.url).protocol}//${hostHeader}`;
      if (origin !== undefined) {
        if (origin !== ownOrigin) {
          return refuse(403, 'mecha web: refused: the request came from another origin');
        }
      } else {
        const site = context.req.header('sec-fetch-site');
        if (site !== 'same-origin') {
          return refuse(
            403,
            'mecha web: refused: a state-changing request must say it is same-origin (Origin header)',
          );
        }
      }
      const type = context.req.header('content-type') ?? '';
      if (!type.startsWith('application/x-www-form-urlencoded')) {
        return refuse(400, 'mecha web: refused: acts are sent as forms');
      }
      const body = await context.req.parseBody();
      const csrf = body.csrf;
      if (typeof csrf !== 'string' || !sameSecret(csrf, options.csrfToken)) {
        return refuse(403, 'mecha web: refused: the form’s CSRF token is missing or stale');
      }
    }
    await next();
  };
}

/**
 * The headers every answer carries: a Content-Security-Policy with no inline script and no inline
 * style but the board's own stylesheet (allowed by its hash),
 * no framing, no sniffing, and no referrer sent to another site.
 */
export function securityHeaders(): MiddlewareHandler {
  return async (context, next) => {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await next();
    // The server's own time for the answer (the page is rendered by now), for a browser's tools:
    // wall-clock (`app`), and the process's CPU time meanwhile (`cpu`, user and system), which a
    // loaded machine does not inflate the way it does the wall clock.
    const cpu = process.cpuUsage(cpuBefore);
    context.header(
      'server-timing',
      `app;dur=${(performance.now() - started).toFixed(2)}, cpu;dur=${((cpu.user + cpu.system) / 1000).toFixed(2)}`,
    );
    context.header(
      'content-security-policy',
      [
        "default-src 'none'",
        "script-src 'self'",
        `style-src 'self' ${boardStyleSource}`,
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ].join('; '),
    );
    context.header('x-content-type-options', 'nosniff');
    context.header('x-frame-options', 'DENY');
    // Not no-referrer: under it a browser sends `Origin: null` on the page's own form posts.
    context.header('referrer-policy', 'same-origin');
    context.header('cross-origin-opener-policy', 'same-origin');
    // A route may open itself to other origins (the <mecha-appraisal> script); the rest stay ours.
    if (!context.res.headers.has('cross-origin-resource-policy')) {
      context.header('cross-origin-resource-policy', 'same-origin');
    }
  };
}
