import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ActorRequest } from './user.dto.js';

export interface EmailDto {
  email: string;
  verified: boolean;
  primary: boolean;
  user_id: number;
  username: string;
}

export class EmailsBody {
  @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(255, { each: true }) emails?: string[];
}

export class EmailPrimaryRequest extends ActorRequest {
  @IsString() @MaxLength(255) email: string;
}

export class EmailsRequest extends ActorRequest {
  @ValidateNested() @Type(() => EmailsBody) body: EmailsBody;
}
