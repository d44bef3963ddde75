import { IsDefined, IsString, MaxLength } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';

/** POST /portal-links/redeem: the token of a portal link, taken from its URL's fragment. */
export class RedeemPortalLinkRequest {
  @Checks(
    ApiProperty({ example: 'agwp_…', maxLength: 200 }),
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    MaxLength(200, { message: 'must be at most 200 characters' }),
  )
  token: string;
}
