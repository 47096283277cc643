import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MechaError } from '@mecha/errors';

/** A throwaway PostgreSQL server: initdb into a temporary folder, a loopback port, torn down. */
export interface PostgresServer {
  /** A URL with no database name: add `/name`. */
  readonly baseUrl: string;
  readonly port: number;
  readonly version: string;
  stop(): void;
}

const installHint =
  "PostgreSQL's server binaries (initdb, pg_ctl) were not found: install them (Debian/Ubuntu: 'sudo apt-get install -y postgresql'), or set MECHA_PG_BIN to the folder that holds them";

/**
 * The folder holding initdb and pg_ctl: $MECHA_PG_BIN, else the newest
 * /usr/lib/postgresql/N/bin, else the PATH. Throws the one-line instruction when there is none.
 */
export function postgresBinaries(): string {
  const given = process.env.MECHA_PG_BIN;
  if (given !== undefined && given !== '') {
    if (existsSync(join(given, 'initdb'))) return given;
    throw new MechaError(`MECHA_PG_BIN=${given} has no initdb in it. ${installHint}`);
  }
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((name) => /^\d+(\.\d+)?$/.test(name) && existsSync(join(base, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(base, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  if (which.status === 0 && found !== '') return join(found, '..');
  throw new MechaError(installHint);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a fresh server as the `mecha` superuser with trust auth on 127.0.0.1 only, tuned for
 * tests (no fsync: the data folder is thrown away). initdb refuses root, so as root it runs as
 * the `postgres` system user.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const folder = mkdtempSync(join(base, 'mecha-pg-'));
  const data = join(folder, 'data');
  const run = (tool: string, args: readonly string[]) => {
    const command = asRoot ? 'runuser' : join(bin, tool);
    const full = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : [...args];
    const result = spawnSync(command, full, { encoding: 'utf8', cwd: folder });
    if (result.status !== 0) {
      throw new MechaError(
        `${tool} failed (exit ${result.status}): ${(result.stderr || result.stdout || String(result.error)).trim()}`,
      );
    }
    return result.stdout;
  };
  try {
    if (asRoot) {
      chmodSync(folder, 0o777);
      spawnSync('chown', ['postgres', folder]);
    }
    run('initdb', [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'mecha',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${folder}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(folder, 'server.log'), '-w', 'start']);
    const version = run('pg_ctl', ['--version']).trim();
    let stopped = false;
    return {
      baseUrl: `postgres://mecha@127.0.0.1:${port}`,
      port,
      version,
      stop() {
        if (stopped) return;
        stopped = true;
        try {
          run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}
