import { IsDefined, IsString } from 'class-validator';
import { Checks } from '../../common/checks';
import { CodePointLength, IsStorableText } from '../../common/text.validators';

export class CreateTenantRequest {
  @Checks(
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    CodePointLength(1, 200),
    IsStorableText(),
  )
  name: string;
}
