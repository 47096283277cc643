/** Bundles a built entry for the browser and reports what could not be bundled. */
export declare function bundleForBrowser(
  entry: string,
): Promise<{ ok: boolean; errors: string[]; bytes: number }>;
