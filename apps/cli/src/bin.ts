#!/usr/bin/env node
import { main } from './main.js';

// A reader that stops early (`mecha sessions appraise | head`) closes the pipe: that is the
// reader's choice, not a failure of ours, so end quietly instead of printing a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
