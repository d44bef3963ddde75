import { ApiProperty } from '@nestjs/swagger';
import { SessionKind } from '../console-session.entity';

/** A portal link: open `url` in the browser of one of the tenant's developers (once, before `expires_at`). */
export class PortalLinkDto {
  @ApiProperty({ example: 'https://gateway.example.com/console/portal#token=agwp_…', description: 'The token travels in the fragment, which browsers never send to a server' })
  url: string;

  @ApiProperty({ example: 'agwp_…', description: 'The same token, on its own; only the gateway\'s own portal page (at url) can redeem it' })
  token: string;

  @ApiProperty({ format: 'uuid' })
  tenant_id: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class PortalLinkResponse {
  @ApiProperty({ type: PortalLinkDto })
  portal_link: PortalLinkDto;
}

/** Whose portal a link opens, read without using the link up. */
class PortalLinkPreviewDto {
  @ApiProperty({ format: 'uuid' })
  tenant_id: string;

  @ApiProperty({ example: 'Acme', description: 'The tenant\'s name, to show the person about to open its portal' })
  tenant_name: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

/** The console session the browser holds, which opening the link would end. */
class HeldSessionDto {
  @ApiProperty({ enum: ['operator', 'tenant'] })
  kind: SessionKind;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  tenant_id: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Globex', description: 'The tenant of a portal session; null for an operator' })
  tenant_name: string | null;
}

export class PortalLinkPreviewResponse {
  @ApiProperty({ type: PortalLinkPreviewDto })
  portal_link: PortalLinkPreviewDto;

  @ApiProperty({
    type: HeldSessionDto,
    nullable: true,
    description: 'The session this browser holds (its cookie), if any: redeeming the link without replace_session is refused with 409 while it is an operator\'s or another tenant\'s',
  })
  current_session: HeldSessionDto | null;
}
