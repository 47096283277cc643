/** A store line waiting for its time, with what to do once it is written. */
export interface Scheduled<Store extends string> {
  readonly at: number;
  readonly seq: number;
  readonly store: Store;
  readonly record: Record<string, unknown>;
  readonly then?: () => void;
}

/**
 * A binary min-heap of store lines by time (then by order scheduled): logs come out in time
 * order, whatever order the sessions schedule them in.
 */
export class Schedule<Store extends string> {
  private readonly items: Scheduled<Store>[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  add(at: number, store: Store, record: Record<string, unknown>, then?: () => void): void {
    const item: Scheduled<Store> = {
      at,
      seq: this.seq++,
      store,
      record,
      ...(then ? { then } : {}),
    };
    const items = this.items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.less(items[index] as Scheduled<Store>, items[parent] as Scheduled<Store>)) break;
      [items[index], items[parent]] = [
        items[parent] as Scheduled<Store>,
        items[index] as Scheduled<Store>,
      ];
      index = parent;
    }
  }

  peek(): Scheduled<Store> | undefined {
    return this.items[0];
  }

  pop(): Scheduled<Store> | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    items[0] = last;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (
        left < items.length &&
        this.less(items[left] as Scheduled<Store>, items[smallest] as Scheduled<Store>)
      )
        smallest = left;
      if (
        right < items.length &&
        this.less(items[right] as Scheduled<Store>, items[smallest] as Scheduled<Store>)
      )
        smallest = right;
      if (smallest === index) break;
      [items[index], items[smallest]] = [
        items[smallest] as Scheduled<Store>,
        items[index] as Scheduled<Store>,
      ];
      index = smallest;
    }
    return top;
  }

  private less(a: Scheduled<Store>, b: Scheduled<Store>): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
}
