import { IsIn, IsString, Length, ValidateIf } from 'class-validator';
import { HasNoNulCharacter } from '../../common/text.validators';
import { TenantStatus } from '../../tenancy/tenant.entity';

export class UpdateTenantRequest {
  @ValidateIf((_, value) => value !== undefined)
  @IsString({ message: 'must be a string' })
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  @HasNoNulCharacter()
  name?: string;

  @ValidateIf((_, value) => value !== undefined)
  @IsIn(['active', 'disabled'], { message: 'must be "active" or "disabled"' })
  status?: TenantStatus;
}
