import { IsDefined, IsString, Length } from 'class-validator';
import { Checks } from '../../common/checks';
import { HasNoNulCharacter } from '../../common/text.validators';

export class CreateTenantRequest {
  @Checks(
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    Length(1, 200, { message: 'must be 1 to 200 characters' }),
    HasNoNulCharacter(),
  )
  name: string;
}
