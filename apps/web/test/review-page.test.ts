import { describe, expect, it } from 'vitest';
import { reviewPage } from '../src/pages/review-page.js';

// Issue 27, defect 7: an empty review queue says how it gets filled, never a bare "Nothing waits".
describe('the review page', () => {
  it('says how an empty queue gets filled', async () => {
    const empty = { state: 'read', value: { items: [], total: 0 } } as const;
    const page = String(await reviewPage(empty, empty, 'token'));
    expect(page).toContain('Candidate facts arrive when');
    expect(page).toContain('mecha distill');
    expect(page).toContain('[model] path');
  });
});
