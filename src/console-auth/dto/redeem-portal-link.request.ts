import { IsBoolean, IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';

/** POST /portal-links/inspect: the token of a portal link, taken from its URL's fragment. */
export class PortalLinkTokenRequest {
  @Checks(
    ApiProperty({ example: 'agwp_…', maxLength: 200 }),
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    MaxLength(200, { message: 'must be at most 200 characters' }),
  )
  token: string;
}

/** POST /portal-links/redeem: the token of a portal link, and whether it may end the session the browser holds. */
export class RedeemPortalLinkRequest extends PortalLinkTokenRequest {
  @Checks(
    ApiProperty({
      required: false,
      description:
        'true: end the console session this browser holds (an operator\'s, or another tenant\'s portal) and open this link\'s portal. ' +
        'Without it, such a browser gets 409 and the link stays unused, so a page can ask its user first (login CSRF)',
    }),
    IsOptional(),
    IsBoolean({ message: 'must be a boolean' }),
  )
  replace_session?: boolean;
}
