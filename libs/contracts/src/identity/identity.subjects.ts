/** Served by identity-service (queue group `identity-service`). */
export const IdentitySubjects = {
  /** Resolve credentials (token, password, session, SSH key fingerprint) to an actor. */
  authResolve: 'identity.auth.resolve',
  /** A web session's user (by id) as an actor with `via: 'session'`; refused once the user may no longer sign in. */
  authSession: 'identity.auth.session',
  /** A registry token's sign-in reference as its actor now; refused once the user may not sign in or the token is gone. */
  authReference: 'identity.auth.reference',
  /** The web sign-in form: checks the password (throttled); says whether the two-factor step must follow. */
  authWebSignIn: 'identity.auth.web-sign-in',
  /** The web sign-in's two-factor step: a TOTP code or the recovery code (throttled, each usable once). */
  authWebSecondFactor: 'identity.auth.web-second-factor',
  /** Health check. */
  health: 'identity.health.check',

  /** Create a user (admin). */
  userCreate: 'identity.user.create',
  /** Self sign-up: `userCreate`'s rules; 403 under `[service] DISABLE_REGISTRATION`, throttled like sign-in. */
  userRegister: 'identity.user.register',
  /** Edit a user (admin). */
  userEdit: 'identity.user.edit',
  /** Delete a user (admin). */
  userDelete: 'identity.user.delete',
  /** Get a user by login name. */
  userGet: 'identity.user.get',
  /** Search users. */
  userSearch: 'identity.user.search',
  /** Every user account, filtered and sorted (`GET /admin/users`, site admins). */
  userAdminSearch: 'identity.user.admin-search',
  /** The caller's e-mail addresses. */
  emailList: 'identity.email.list',
  /** Add addresses to the caller's account. */
  emailAdd: 'identity.email.add',
  /** Remove some of the caller's additional addresses. */
  emailDelete: 'identity.email.delete',
  /** Make an activated additional address the caller's primary one; the old primary stays as an additional address. */
  emailSetPrimary: 'identity.email.set-primary',
  /** Look up users by ids and/or e-mail addresses (commit authors, repository owners). */
  userLookup: 'identity.user.lookup',
  /** The caller's own profile settings (`GET /user/settings`). */
  userSettingsGet: 'identity.user.settings.get',
  /** Update the caller's own profile settings (`PATCH /user/settings`, the web profile form). */
  userSettingsUpdate: 'identity.user.settings.update',
  /** The caller sets their own new password, which also clears "must change password". */
  userPasswordChange: 'identity.user.password.change',
  /** Verify a user's password (Basic auth); replies the actor. */
  userVerifyPassword: 'identity.user.verify-password',

  /** Resolve an owner name (user or organization) to its id and kind. */
  ownerResolve: 'identity.owner.resolve',

  /** Create an access token. */
  tokenCreate: 'identity.token.create',
  /** List a user's access tokens. */
  tokenList: 'identity.token.list',
  /** Delete an access token by id or name. */
  tokenDelete: 'identity.token.delete',

  /** Add a public key. */
  keyCreate: 'identity.key.create',
  /** List public keys (own or another user's). */
  keyList: 'identity.key.list',
  /** Get one of the caller's keys. */
  keyGet: 'identity.key.get',
  /** Delete one of the caller's keys. */
  keyDelete: 'identity.key.delete',
  /** Resolve an SSH public key (wire blob) to its owner, for SSH authentication; records `last_used_at`. */
  keyResolve: 'identity.key.resolve',
  /** Record that a key was used (throttled). */
  keyTouch: 'identity.key.touch',
  /** Verify one of the caller's SSH keys with an `ssh-keygen -Y sign -n gitea` signature over the token. */
  keyVerify: 'identity.key.verify',
  /** The caller's current key verification token (Gitea's `gpg_key_token`; also used for SSH keys). */
  keyVerificationToken: 'identity.key.verification-token',
  /** Check a deploy key: user keys' content and size rules, and not any user's key; UNPROCESSABLE when refused. */
  keyCheckDeploy: 'identity.key.check-deploy',

  /** Add an OpenPGP key. */
  gpgKeyCreate: 'identity.gpg-key.create',
  /** List OpenPGP keys (own or another user's). */
  gpgKeyList: 'identity.gpg-key.list',
  /** Get one of the caller's OpenPGP keys. */
  gpgKeyGet: 'identity.gpg-key.get',
  /** Delete an OpenPGP key (owner or site admin). */
  gpgKeyDelete: 'identity.gpg-key.delete',
  /** Verify one of the caller's OpenPGP keys with a detached signature over the token. */
  gpgKeyVerify: 'identity.gpg-key.verify',

  /** The committers' accounts and signing keys (SSH, OpenPGP) for verifying commit signatures (repo-service). */
  signingKeys: 'identity.signing.keys',

  /** Create an organization. */
  orgCreate: 'identity.org.create',
  /** Get an organization. */
  orgGet: 'identity.org.get',
  /** List organizations (all, or those of a user). */
  orgList: 'identity.org.list',
  /** The caller's role in an organization (owner, member, team permissions) for access decisions. */
  orgMembership: 'identity.org.membership',
  /** What a user may do in an organization (Gitea's `OrganizationPermissions`). */
  orgUserPermissions: 'identity.org.user-permissions',
  /** A user's standing in every organization they belong to, in one reply (lists across owners). */
  orgStandings: 'identity.org.standings',
  /** Delete an organization (none of its repositories left); records `identity.evt.user.deleted` for cleanup. */
  orgDelete: 'identity.org.delete',
  /** Edit an organization's profile and visibility (owners and site admins). */
  orgEdit: 'identity.org.edit',

  /** List an organization's teams. */
  teamList: 'identity.team.list',
  /** Create a team. */
  teamCreate: 'identity.team.create',
  /** Get a team by id. */
  teamGet: 'identity.team.get',
  /** Internal: teams of an organization by name or id, or all that include every repository; bounded (`TEAM_LOOKUP_MAX`). */
  teamLookup: 'identity.team.lookup',
  /** Edit a team (owners and site admins; the Owners team keeps its permission). */
  teamEdit: 'identity.team.edit',
  /** Delete a team (owners and site admins; never the Owners team); members left without a team leave the org. */
  teamDelete: 'identity.team.delete',
  /** One member of a team, as a user; NOT_FOUND when not a member. */
  teamMemberGet: 'identity.team.member-get',
  /** Add a member to a team. */
  teamMemberAdd: 'identity.team.member-add',
  /** Remove a member from a team. */
  teamMemberRemove: 'identity.team.member-remove',
  /** List a team's members. */
  teamMemberList: 'identity.team.member-list',

  /** List an organization's members. */
  memberList: 'identity.member.list',
  /** Is a user a member of an organization. */
  memberCheck: 'identity.member.check',
  /** Remove a user from an organization (all its teams). */
  memberRemove: 'identity.member.remove',
  /** List public members. */
  publicMemberList: 'identity.public-member.list',
  /** Is a member public. */
  publicMemberCheck: 'identity.public-member.check',
  /** Publicize or conceal a member. */
  publicMemberSet: 'identity.public-member.set',

  /** Start the actor's TOTP enrolment (pending until confirmed); replies the secret once. */
  twoFactorEnroll: 'identity.two-factor.enroll',
  /** Activate the actor's pending enrolment with a current code; replies the recovery code once. */
  twoFactorConfirm: 'identity.two-factor.confirm',
  /** Remove a user's two-factor enrolment (active or pending). */
  twoFactorDisable: 'identity.two-factor.disable',
} as const;
