import { Injectable } from '@nestjs/common';
import { isActionName } from '../../actions/action-name';
import { PageCursors } from '../../common/page-cursors';
import { TenantId } from '../../common/tenant-id';

const LIST = 'mcp tools/list';

/**
 * `tools/list` cursors: the last tool name of the page, signed for the tenant (PageCursors). The name keeps
 * paging stable when actions are created or deleted between pages.
 */
@Injectable()
export class McpCursors {
  constructor(private readonly cursors: PageCursors) {}

  make(tenantId: TenantId, lastName: string): string {
    return this.cursors.make(LIST, tenantId, [lastName]);
  }

  /** The name a cursor continues after, or undefined when the server did not give this cursor to this tenant. */
  read(tenantId: TenantId, cursor: string): string | undefined {
    const position = this.cursors.read(LIST, tenantId, cursor);
    return position?.length === 1 && isActionName(position[0]) ? position[0] : undefined;
  }
}
