import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ActorRequest } from './user.dto.js';

/** Gitea's `Email`: one of a user's addresses. */
export interface EmailDto {
  email: string;
  verified: boolean;
  primary: boolean;
  user_id: number;
  username: string;
}

/** `POST` / `DELETE /user/emails` body (Gitea's `CreateEmailOption` / `DeleteEmailOption`). */
export class EmailsBody {
  @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(255, { each: true }) emails?: string[];
}

/** `identity.email.set-primary`: one of the caller's activated addresses becomes the primary one (Gitea's web settings). */
export class EmailPrimaryRequest extends ActorRequest {
  @IsString() @MaxLength(255) email: string;
}

/** `identity.email.add` / `identity.email.delete`. */
export class EmailsRequest extends ActorRequest {
  @ValidateNested() @Type(() => EmailsBody) body: EmailsBody;
}
