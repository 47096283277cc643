import { type Draw, day, hour, iso } from './draw.js';
import type { HomeWriter } from './home-writer.js';

/** A task of the board as the generator tracks it. */
export interface Task {
  readonly id: string;
  readonly title: string;
  status: 'inbox' | 'next' | 'waiting' | 'done' | 'dropped';
  readonly projectId?: string;
  readonly due?: string;
  readonly holder: 'agent' | 'owner' | 'other';
  /** Scheduled to close: no later session picks it. */
  closing: boolean;
}

const boardRow = (task: Task) => ({
  v: 1,
  kind: 'task',
  id: task.id,
  title: task.title,
  status: task.status,
  ...(task.projectId === undefined ? {} : { project_id: task.projectId }),
  ...(task.due === undefined ? {} : { due: task.due }),
  holder: task.holder,
});

/**
 * The board (`board/board.jsonl`) and the task closures (`closures/closures.jsonl`): projects
 * up front, tasks as sessions need them, and tasks closed, dropped and reopened by the owner.
 */
export class Board {
  readonly projects: readonly string[];
  // Sessions return to recent tasks: a window of the latest ones keeps picking cheap.
  private readonly recentTasks: Task[] = [];

  constructor(
    private readonly draw: Draw,
    private readonly writer: HomeWriter,
    sessions: number,
    start: number,
  ) {
    this.projects = Array.from({ length: Math.max(2, Math.ceil(sessions / 400)) }, () =>
      draw.id('proj'),
    );
    this.projects.forEach((project, index) => {
      writer.add(start - day, 'board', {
        v: 1,
        kind: 'project',
        id: project,
        title: `Project ${index + 1}`,
      });
    });
  }

  /** The recent tasks still open and not about to close. */
  openTasks(): Task[] {
    return this.recentTasks.filter(
      (task) => !task.closing && task.status !== 'done' && task.status !== 'dropped',
    );
  }

  /** A new task, on the board at `at`. */
  newTask(at: number): Task {
    const { random, id, text } = this.draw;
    const task: Task = {
      id: id('task'),
      title: text(3, 7),
      status: random.weighted([
        ['inbox', 2],
        ['next', 5],
        ['waiting', 2],
      ] as const),
      ...(random.chance(0.8) ? { projectId: random.pick(this.projects) } : {}),
      ...(random.chance(0.6) ? { due: iso(at + random.int(1, 30) * day).slice(0, 10) } : {}),
      holder: random.weighted([
        ['agent', 4],
        ['owner', 4],
        ['other', 2],
      ] as const),
      closing: false,
    };
    this.recentTasks.push(task);
    if (this.recentTasks.length > 64) this.recentTasks.shift();
    this.writer.add(at, 'board', boardRow(task));
    return task;
  }

  /**
   * The owner closes (or drops) the task a session worked on, hours after it ended; a few done
   * tasks are reopened days later. Sessions before `early` write version-1 closures.
   */
  close(task: Task, sessionId: string, endedAt: number, early: boolean): void {
    const { random, id, text } = this.draw;
    const closing = task;
    closing.closing = true;
    const at = endedAt + random.int(1, 72) * hour;
    const to = random.chance(0.8) ? 'done' : 'dropped';
    const closureId = id('close');
    const closure = {
      v: early ? 1 : 2,
      closure_id: closureId,
      at: iso(at),
      task_id: closing.id,
      from: closing.status,
      to,
      surface: random.pick(['cli', 'web', 'slack', 'tui']),
      session_ids: [sessionId],
      ...(early
        ? {}
        : { who: random.chance(0.85) ? 'owner' : 'agent_with_approval', person_present: true }),
    };
    this.writer.add(at, 'closures', closure);
    this.writer.add(at, 'board', { ...boardRow(closing), status: to }, () => {
      closing.status = to;
    });
    if (to === 'done' && random.chance(0.08)) {
      const reopenedAt = at + random.int(1, 20) * day;
      this.writer.add(reopenedAt, 'closures', {
        v: 2,
        closure_id: id('close'),
        at: iso(reopenedAt),
        task_id: closing.id,
        from: 'done',
        to: 'next',
        surface: random.pick(['cli', 'web']),
        session_ids: [sessionId],
        who: 'owner',
        person_present: true,
        reopens: closureId,
        ...(random.chance(0.5) ? { reason: text(4, 12) } : {}),
      });
      this.writer.add(reopenedAt, 'board', { ...boardRow(closing), status: 'next' }, () => {
        closing.status = 'next';
        closing.closing = false;
      });
    }
  }
}
