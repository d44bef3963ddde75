import { IsIn, IsString, ValidateIf } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';
import { CodePointLength, IsNotBlank, IsStorableText } from '../../common/text.validators';
import { TenantStatus } from '../../tenancy/tenant.entity';

const whenPresent = () => ValidateIf((_, value) => value !== undefined);

export class UpdateTenantRequest {
  @Checks(
    ApiProperty({ required: false, example: 'Acme Ltd', minLength: 1, maxLength: 200, pattern: '\\S' }),
    whenPresent(),
    IsString({ message: 'must be a string' }),
    CodePointLength(1, 200),
    IsNotBlank(),
    IsStorableText(),
  )
  name?: string;

  @Checks(ApiProperty({ required: false, enum: ['active', 'disabled'] }), whenPresent(), IsIn(['active', 'disabled'], { message: 'must be "active" or "disabled"' }))
  status?: TenantStatus;
}
