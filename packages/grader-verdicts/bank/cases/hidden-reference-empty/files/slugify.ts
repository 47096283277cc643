/** Lower-case words joined by single hyphens, nothing else kept. */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .join('-');
}
