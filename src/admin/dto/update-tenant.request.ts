import { IsIn, IsString, ValidateIf } from 'class-validator';
import { Checks } from '../../common/checks';
import { CodePointLength, IsStorableText } from '../../common/text.validators';
import { TenantStatus } from '../../tenancy/tenant.entity';

const whenPresent = () => ValidateIf((_, value) => value !== undefined);

export class UpdateTenantRequest {
  @Checks(
    whenPresent(),
    IsString({ message: 'must be a string' }),
    CodePointLength(1, 200),
    IsStorableText(),
  )
  name?: string;

  @Checks(whenPresent(), IsIn(['active', 'disabled'], { message: 'must be "active" or "disabled"' }))
  status?: TenantStatus;
}
