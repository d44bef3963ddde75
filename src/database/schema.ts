import { Action } from '../actions/action.entity';
import { ApiToken } from '../auth/api-token.entity';
import { ConsoleSession } from '../console-auth/console-session.entity';
import { PortalLink } from '../console-auth/portal-link.entity';
import { InitialSchema1763776800000 } from './migrations/1763776800000-initial-schema';
import { Executions1763780400000 } from './migrations/1763780400000-executions';
import { ConsoleSessions1763791200000 } from './migrations/1763791200000-console-sessions';
import { Execution } from '../executions/execution.entity';
import { HmacKey } from '../webhooks/hmac-key.entity';
import { Tenant } from '../tenancy/tenant.entity';

/** Every entity and migration, listed once for the app, the TypeORM command line and the tests. */
export const ENTITIES = [Tenant, ApiToken, HmacKey, Action, Execution, ConsoleSession, PortalLink];
export const MIGRATIONS = [InitialSchema1763776800000, Executions1763780400000, ConsoleSessions1763791200000];
