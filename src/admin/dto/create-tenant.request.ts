import { IsDefined, IsString } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';
import { CodePointLength, IsNotBlank, IsStorableText } from '../../common/text.validators';

export class CreateTenantRequest {
  @Checks(
    ApiProperty({ example: 'Acme', minLength: 1, maxLength: 200, pattern: '\\S' }),
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    CodePointLength(1, 200),
    IsNotBlank(),
    IsStorableText(),
  )
  name: string;
}
