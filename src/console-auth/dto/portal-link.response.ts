import { ApiProperty } from '@nestjs/swagger';

/** A portal link: open `url` in the browser of one of the tenant's developers (once, before `expires_at`). */
export class PortalLinkDto {
  @ApiProperty({ example: 'https://gateway.example.com/console/portal#token=agwp_…', description: 'The token travels in the fragment, which browsers never send to a server' })
  url: string;

  @ApiProperty({ example: 'agwp_…', description: 'The same token, for a page of your own that redeems it' })
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
