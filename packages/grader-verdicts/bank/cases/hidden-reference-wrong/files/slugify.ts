/** Lower-case words joined by single hyphens, nothing else kept. */
export function slugify(title: string): string {
  return title.toLowerCase().replaceAll(' ', '-');
}
