import { build } from 'esbuild';

/**
 * Bundles a built entry for the browser and reports what could not be bundled, so a test can
 * prove a package that promises to run in a browser pulls in no Node module.
 * @param {string} entry absolute path of the built entry (dist/index.js)
 * @returns {Promise<{ ok: boolean; errors: string[]; bytes: number }>}
 */
export async function bundleForBrowser(entry) {
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0);
    return { ok: true, errors: [], bytes };
  } catch (error) {
    const errors = Array.isArray(error?.errors)
      ? error.errors.map((message) => message.text)
      : [String(error)];
    return { ok: false, errors, bytes: 0 };
  }
}
