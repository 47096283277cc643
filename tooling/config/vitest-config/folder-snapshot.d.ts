/**
 * Every file's bytes (base64) and every folder under `root`, by relative path (folders end in
 * `/`): two snapshots are equal only if nothing was written, created or removed in between.
 */
export declare function folderSnapshot(root: string): Map<string, string>;
