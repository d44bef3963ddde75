import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SessionKind } from '../console-session.entity';

/** The caller's console session, as `GET /session` and the sign-in endpoints show it. */
export class SessionDto {
  @ApiProperty({ enum: ['operator', 'tenant'], description: 'operator: every tenant; tenant: the one tenant of a portal link' })
  kind: SessionKind;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'The tenant a tenant session is scoped to' })
  tenant_id: string | null;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;

  @ApiProperty({ description: 'Send it back in the X-CSRF-Token header of every POST, PUT, PATCH and DELETE made with the session cookie' })
  csrf_token: string;
}

export class SessionResponse {
  @ApiProperty({ type: SessionDto })
  session: SessionDto;
}

/** GET /session: a page can ask who is signed in without an error when nobody is. */
export class CurrentSessionResponse {
  @ApiProperty({ type: SessionDto, nullable: true })
  session: SessionDto | null;

  @ApiPropertyOptional({
    enum: ['tenant'],
    description: 'With no session: the cookie sent was a portal (tenant) session that has ended, so the console asks for a new portal link',
  })
  ended?: 'tenant';
}
