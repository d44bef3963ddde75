import { IsIn, IsString, Length, ValidateIf } from 'class-validator';
import { Checks } from '../../common/checks';
import { HasNoNulCharacter } from '../../common/text.validators';
import { TenantStatus } from '../../tenancy/tenant.entity';

const whenPresent = () => ValidateIf((_, value) => value !== undefined);

export class UpdateTenantRequest {
  @Checks(
    whenPresent(),
    IsString({ message: 'must be a string' }),
    Length(1, 200, { message: 'must be 1 to 200 characters' }),
    HasNoNulCharacter(),
  )
  name?: string;

  @Checks(whenPresent(), IsIn(['active', 'disabled'], { message: 'must be "active" or "disabled"' }))
  status?: TenantStatus;
}
