import type { Paginated } from '../common/pagination.js';
import type {
  AuthReferenceRequest, ResolveCredentialsReply, ResolveCredentialsRequest, SecondFactorReply, SecondFactorRequest, SessionUserRequest,
  WebSignInReply, WebSignInRequest,
} from './credentials.dto.js';
import type {
  CheckDeployKeyReply, CheckDeployKeyRequest, CreateKeyRequest, KeyIdRequest, ListKeysRequest, PublicKeyDto, ResolveKeyReply,
  ResolveKeyRequest, TouchKeyRequest,
} from './key.dto.js';
import type {
  CreateOrgRequest, CreateTeamRequest, EditOrgRequest, EditTeamRequest, OrgListRequest, OrgMemberRequest, OrgMembershipReply,
  OrgMembershipRequest, OrganizationPermissionsDto,
  OrgPagedRequest, OrgRequest, OrgStandingsReply, OrgStandingsRequest, OrganizationDto, SetPublicMemberRequest,
  TeamDto, TeamLookupReply, TeamLookupRequest, TeamMemberRequest, TeamPagedRequest, TeamRequest,
} from './org.dto.js';
import type {
  CreateGpgKeyRequest, GpgKeyDto, ListGpgKeysRequest, VerifyGpgKeyRequest, VerifySshKeyRequest,
} from './gpg-key.dto.js';
import type { EmailDto, EmailPrimaryRequest, EmailsRequest } from './email.dto.js';
import type { SigningKeysReply, SigningKeysRequest } from './signing-keys.dto.js';
import type { AccessTokenDto, CreateTokenRequest, DeleteTokenRequest, ListTokensRequest } from './token.dto.js';
import type {
  TwoFactorConfirmReply, TwoFactorConfirmRequest, TwoFactorEnrollReply, TwoFactorRequest,
} from './two-factor.dto.js';
import type {
  ActorRequest, CreateUserRequest, EditUserRequest, LookupUsersReply, LookupUsersRequest, OwnerDto, OwnerResolveRequest,
  AdminSearchUsersRequest, SearchUsersRequest, UserDto, UsernameRequest,
} from './user.dto.js';
import type { ChangeOwnPasswordRequest, RegisterUserRequest, UserSettingsDto, UserSettingsRequest } from './user-settings.dto.js';
import type { RpcPair } from '../rpc-contract.js';
import type { IdentitySubjects } from './identity.subjects.js';

export interface IdentityRpc {
  [IdentitySubjects.authResolve]: RpcPair<ResolveCredentialsRequest, ResolveCredentialsReply>;
  [IdentitySubjects.authSession]: RpcPair<SessionUserRequest, ResolveCredentialsReply>;
  [IdentitySubjects.authReference]: RpcPair<AuthReferenceRequest, ResolveCredentialsReply>;
  [IdentitySubjects.authWebSignIn]: RpcPair<WebSignInRequest, WebSignInReply>;
  [IdentitySubjects.authWebSecondFactor]: RpcPair<SecondFactorRequest, SecondFactorReply>;
  [IdentitySubjects.userCreate]: RpcPair<CreateUserRequest, UserDto>;
  [IdentitySubjects.userRegister]: RpcPair<RegisterUserRequest, UserDto>;
  [IdentitySubjects.userEdit]: RpcPair<EditUserRequest, UserDto>;
  [IdentitySubjects.userDelete]: RpcPair<UsernameRequest, { ok: true }>;
  [IdentitySubjects.userGet]: RpcPair<UsernameRequest, UserDto>;
  [IdentitySubjects.userSearch]: RpcPair<SearchUsersRequest, Paginated<UserDto>>;
  [IdentitySubjects.userAdminSearch]: RpcPair<AdminSearchUsersRequest, Paginated<UserDto>>;
  [IdentitySubjects.emailList]: RpcPair<ActorRequest, EmailDto[]>;
  [IdentitySubjects.emailAdd]: RpcPair<EmailsRequest, EmailDto[]>;
  [IdentitySubjects.emailDelete]: RpcPair<EmailsRequest, null>;
  [IdentitySubjects.emailSetPrimary]: RpcPair<EmailPrimaryRequest, EmailDto[]>;
  [IdentitySubjects.userLookup]: RpcPair<LookupUsersRequest, LookupUsersReply>;
  [IdentitySubjects.userSettingsGet]: RpcPair<UserSettingsRequest, UserSettingsDto>;
  [IdentitySubjects.userSettingsUpdate]: RpcPair<UserSettingsRequest, UserSettingsDto>;
  [IdentitySubjects.userPasswordChange]: RpcPair<ChangeOwnPasswordRequest, null>;
  [IdentitySubjects.userVerifyPassword]: RpcPair<ResolveCredentialsRequest, ResolveCredentialsReply>;
  [IdentitySubjects.ownerResolve]: RpcPair<OwnerResolveRequest, OwnerDto>;
  [IdentitySubjects.tokenCreate]: RpcPair<CreateTokenRequest, AccessTokenDto>;
  [IdentitySubjects.tokenList]: RpcPair<ListTokensRequest, Paginated<AccessTokenDto>>;
  [IdentitySubjects.tokenDelete]: RpcPair<DeleteTokenRequest, { ok: true }>;
  [IdentitySubjects.keyCreate]: RpcPair<CreateKeyRequest, PublicKeyDto>;
  [IdentitySubjects.keyList]: RpcPair<ListKeysRequest, Paginated<PublicKeyDto>>;
  [IdentitySubjects.keyGet]: RpcPair<KeyIdRequest, PublicKeyDto>;
  [IdentitySubjects.keyDelete]: RpcPair<KeyIdRequest, { ok: true }>;
  [IdentitySubjects.keyResolve]: RpcPair<ResolveKeyRequest, ResolveKeyReply>;
  [IdentitySubjects.keyVerify]: RpcPair<VerifySshKeyRequest, PublicKeyDto>;
  [IdentitySubjects.keyVerificationToken]: RpcPair<ActorRequest, { token: string }>;
  [IdentitySubjects.gpgKeyCreate]: RpcPair<CreateGpgKeyRequest, GpgKeyDto>;
  [IdentitySubjects.gpgKeyList]: RpcPair<ListGpgKeysRequest, Paginated<GpgKeyDto>>;
  [IdentitySubjects.gpgKeyGet]: RpcPair<KeyIdRequest, GpgKeyDto>;
  [IdentitySubjects.gpgKeyDelete]: RpcPair<KeyIdRequest, { ok: true }>;
  [IdentitySubjects.gpgKeyVerify]: RpcPair<VerifyGpgKeyRequest, GpgKeyDto>;
  [IdentitySubjects.signingKeys]: RpcPair<SigningKeysRequest, SigningKeysReply>;
  [IdentitySubjects.keyTouch]: RpcPair<TouchKeyRequest, { ok: true }>;
  [IdentitySubjects.keyCheckDeploy]: RpcPair<CheckDeployKeyRequest, CheckDeployKeyReply>;
  [IdentitySubjects.orgCreate]: RpcPair<CreateOrgRequest, OrganizationDto>;
  [IdentitySubjects.orgGet]: RpcPair<OrgRequest, OrganizationDto>;
  [IdentitySubjects.orgDelete]: RpcPair<OrgRequest, null>;
  [IdentitySubjects.orgEdit]: RpcPair<EditOrgRequest, OrganizationDto>;
  [IdentitySubjects.orgList]: RpcPair<OrgListRequest, Paginated<OrganizationDto>>;
  [IdentitySubjects.orgMembership]: RpcPair<OrgMembershipRequest, OrgMembershipReply>;
  [IdentitySubjects.orgUserPermissions]: RpcPair<OrgMemberRequest, OrganizationPermissionsDto>;
  [IdentitySubjects.orgStandings]: RpcPair<OrgStandingsRequest, OrgStandingsReply>;
  [IdentitySubjects.teamList]: RpcPair<OrgPagedRequest, Paginated<TeamDto>>;
  [IdentitySubjects.teamCreate]: RpcPair<CreateTeamRequest, TeamDto>;
  [IdentitySubjects.teamGet]: RpcPair<TeamRequest, TeamDto>;
  [IdentitySubjects.teamLookup]: RpcPair<TeamLookupRequest, TeamLookupReply>;
  [IdentitySubjects.teamEdit]: RpcPair<EditTeamRequest, TeamDto>;
  [IdentitySubjects.teamDelete]: RpcPair<TeamRequest, { ok: true }>;
  [IdentitySubjects.teamMemberGet]: RpcPair<TeamMemberRequest, UserDto>;
  [IdentitySubjects.teamMemberAdd]: RpcPair<TeamMemberRequest, { ok: true }>;
  [IdentitySubjects.teamMemberRemove]: RpcPair<TeamMemberRequest, { ok: true }>;
  [IdentitySubjects.teamMemberList]: RpcPair<TeamPagedRequest, Paginated<UserDto>>;
  [IdentitySubjects.memberList]: RpcPair<OrgPagedRequest, Paginated<UserDto>>;
  [IdentitySubjects.memberCheck]: RpcPair<OrgMemberRequest, boolean>;
  [IdentitySubjects.memberRemove]: RpcPair<OrgMemberRequest, { ok: true }>;
  [IdentitySubjects.publicMemberList]: RpcPair<OrgPagedRequest, Paginated<UserDto>>;
  [IdentitySubjects.publicMemberCheck]: RpcPair<OrgMemberRequest, boolean>;
  [IdentitySubjects.publicMemberSet]: RpcPair<SetPublicMemberRequest, { ok: true }>;
  [IdentitySubjects.twoFactorEnroll]: RpcPair<TwoFactorRequest, TwoFactorEnrollReply>;
  [IdentitySubjects.twoFactorConfirm]: RpcPair<TwoFactorConfirmRequest, TwoFactorConfirmReply>;
  [IdentitySubjects.twoFactorDisable]: RpcPair<TwoFactorRequest, { ok: true }>;
}
