import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Buffers one file's lines and writes them in 1 MiB pieces: generation never holds a store. */
export class LineFile {
  private readonly fd: number;
  private pending: string[] = [];
  private size = 0;
  lines = 0;
  bytes = 0;

  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
  }

  push(line: string): void {
    this.pending.push(line, '\n');
    this.size += line.length + 1;
    this.lines += 1;
    if (this.size > 1_048_576) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const data = Buffer.from(this.pending.join(''));
    writeSync(this.fd, data);
    this.bytes += data.length;
    this.pending = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
