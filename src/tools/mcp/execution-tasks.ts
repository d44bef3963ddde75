import type { CallToolResult, Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { TenantId } from '../../common/tenant-id';
import { ExecutionDto } from '../../executions/dto/execution.response';
import { Execution } from '../../executions/execution.entity';
import { ExecutionLogService, mapExecution } from '../../executions/execution-log.service';

/** The `_meta` key of a tool result that carries the execution (as `GET …/executions` shows it). */
export const EXECUTION_META_KEY = 'action-gateway/execution';
/** What a task's `pollInterval` suggests, in milliseconds; tasks/result waits for an unfinished one as often. */
export const TASK_POLL_MS = 1_000;
/** How many tasks one tasks/list page holds. */
const TASKS_PAGE_SIZE = 50;
const DAY_MS = 86_400_000;

/**
 * MCP tasks (2025-11-25) over the tenant's executions, for the SDK's task handlers (tasks/get, tasks/result,
 * tasks/list): a task is an execution, its id the execution's, its state read from the database on every call, so
 * any replica answers for any task and nothing is kept between requests. Made per request for the authenticated
 * tenant: another tenant's execution is a task not found. Tasks are created by tools/call (McpEndpoint), which
 * accepts the execution as `Prefer: respond-async` does; every execution of the tenant, however it was started,
 * is a task (one finished when it was answered), so tasks/list is the tenant's delivery log, newest first.
 */
export class ExecutionTaskStore implements TaskStore {
  constructor(
    private readonly tenantId: TenantId,
    private readonly log: ExecutionLogService,
    private readonly retentionDays: number,
  ) {}

  createTask(_params: CreateTaskOptions, _requestId: RequestId, _request: Request): Promise<Task> {
    return Promise.reject(new Error('tasks are created by tools/call'));
  }

  async getTask(taskId: string): Promise<Task | null> {
    const execution = await this.log.findOfTenant(this.tenantId, taskId);
    return execution ? this.task(execution) : null;
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const execution = await this.log.findOfTenant(this.tenantId, taskId);
    if (!execution) throw new Error('Task not found');
    return toolResult(mapExecution(execution));
  }

  storeTaskResult(): Promise<void> {
    return Promise.reject(new Error('a task ends when its execution does'));
  }

  updateTaskStatus(): Promise<void> {
    // tasks/cancel (not declared): a call already sent cannot be taken back.
    return Promise.reject(new Error('tasks cannot be cancelled: an execution\'s call, once accepted, is made'));
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const page = await this.log.page(this.tenantId, undefined, { limit: TASKS_PAGE_SIZE, cursor });
    const tasks = page.executions.map((execution) => this.task(execution));
    return page.next_cursor === null ? { tasks } : { tasks, nextCursor: page.next_cursor };
  }

  /** The task an execution is (MCP 2025-11-25, "Task"): a failed execution is a failed task, as `isError` is. */
  task(execution: Pick<Execution, 'id' | 'status' | 'error' | 'attempts' | 'attemptLog' | 'createdAt'>): Task {
    const task: Task = {
      taskId: execution.id,
      status: execution.status === 'succeeded' ? 'completed' : execution.status === 'failed' ? 'failed' : 'working',
      createdAt: execution.createdAt.toISOString(),
      lastUpdatedAt: lastUpdated(execution).toISOString(),
      ttl: this.retentionDays * DAY_MS,
      pollInterval: TASK_POLL_MS,
    };
    const message = statusMessage(execution);
    return message === undefined ? task : { ...task, statusMessage: message };
  }
}

/** What `tools/call` answers for an execution, and `tasks/result` for its task. */
export function toolResult(execution: ExecutionDto): CallToolResult {
  const failed = execution.status === 'failed';
  return {
    content: [{ type: 'text', text: failed ? execution.error : (execution.result ?? '') }],
    isError: failed,
    _meta: { [EXECUTION_META_KEY]: execution },
  };
}

function statusMessage(execution: Pick<Execution, 'status' | 'error' | 'attempts'>): string | undefined {
  switch (execution.status) {
    case 'pending':
      return 'accepted: waiting for a replica to run it';
    case 'running':
      return execution.attempts === 0 ? 'running: the call is out' : `running: ${execution.attempts} attempt${execution.attempts === 1 ? '' : 's'} failed so far, retrying`;
    case 'failed':
      return execution.error;
    case 'succeeded':
      return undefined;
  }
}

/** When its state last changed, as far as the log tells: its last attempt's end, or its creation. */
function lastUpdated(execution: Pick<Execution, 'attemptLog' | 'createdAt'>): Date {
  const last = execution.attemptLog.at(-1);
  if (!last) return execution.createdAt;
  return new Date(Math.max(execution.createdAt.getTime(), new Date(last.started_at).getTime() + last.duration_ms));
}
