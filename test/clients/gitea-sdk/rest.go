package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"code.gitea.io/sdk/gitea"
)

// releases and their attachments.
func (r *Run) releases() {
	var rel *gitea.Release
	r.do("CreateRelease", func() (err error) {
		rel, _, err = r.c.CreateRelease(r.admin, r.repo, gitea.CreateReleaseOption{TagName: "v2.0.0", Target: "main", Title: "Two", Note: "notes"})
		if err != nil {
			return err
		}
		return expect(rel.TagName == "v2.0.0" && rel.Title == "Two" && !rel.IsDraft, "release %+v", rel)
	})
	r.do("GetRelease", func() error {
		x, _, err := r.c.GetRelease(r.admin, r.repo, rel.ID)
		if err != nil {
			return err
		}
		return expect(x.Note == "notes", "release %+v", x)
	})
	r.do("GetReleaseByTag", func() error {
		x, _, err := r.c.GetReleaseByTag(r.admin, r.repo, "v2.0.0")
		if err != nil {
			return err
		}
		return expect(x.ID == rel.ID, "release %d", x.ID)
	})
	r.do("GetLatestRelease", func() error {
		x, _, err := r.c.GetLatestRelease(r.admin, r.repo)
		if err != nil {
			return err
		}
		return expect(x.ID == rel.ID, "release %d", x.ID)
	})
	r.do("EditRelease", func() error {
		x, _, err := r.c.EditRelease(r.admin, r.repo, rel.ID, gitea.EditReleaseOption{Title: "Two, edited"})
		if err != nil {
			return err
		}
		return expect(x.Title == "Two, edited" && x.TagName == "v2.0.0", "release %q %q", x.Title, x.TagName)
	})
	r.do("ListReleases", func() error {
		rs, _, err := r.c.ListReleases(r.admin, r.repo, gitea.ListReleasesOptions{})
		if err != nil {
			return err
		}
		return expect(len(rs) == 1 && rs[0].ID == rel.ID, "%d releases", len(rs))
	})
	var att *gitea.Attachment
	r.do("CreateReleaseAttachment", func() (err error) {
		att, _, err = r.c.CreateReleaseAttachment(r.admin, r.repo, rel.ID, strings.NewReader("binary bits\n"), "tool.bin")
		if err != nil {
			return err
		}
		return expect(att.Name == "tool.bin" && att.Size == 12 && att.DownloadURL != "", "attachment %+v", att)
	})
	r.do("GetReleaseAttachment", func() error {
		a, _, err := r.c.GetReleaseAttachment(r.admin, r.repo, rel.ID, att.ID)
		if err != nil {
			return err
		}
		return expect(a.UUID == att.UUID, "attachment %+v", a)
	})
	r.do("EditReleaseAttachment", func() error {
		a, _, err := r.c.EditReleaseAttachment(r.admin, r.repo, rel.ID, att.ID, gitea.EditAttachmentOptions{Name: "tool-linux.bin"})
		if err != nil {
			return err
		}
		return expect(a.Name == "tool-linux.bin", "name %q", a.Name)
	})
	r.do("ListReleaseAttachments", func() error {
		as, _, err := r.c.ListReleaseAttachments(r.admin, r.repo, rel.ID, gitea.ListReleaseAttachmentsOptions{})
		if err != nil {
			return err
		}
		return expect(len(as) == 1 && as[0].ID == att.ID, "%d attachments", len(as))
	})
	r.do("DeleteReleaseAttachment", func() error {
		if _, err := r.c.DeleteReleaseAttachment(r.admin, r.repo, rel.ID, att.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetReleaseAttachment(r.admin, r.repo, rel.ID, att.ID)
		return notFound(resp, err, "attachment")
	})
	r.do("DeleteRelease", func() error {
		if _, err := r.c.DeleteRelease(r.admin, r.repo, rel.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetRelease(r.admin, r.repo, rel.ID)
		return notFound(resp, err, "release")
	})
	r.do("DeleteReleaseByTag", func() error {
		if _, _, err := r.c.CreateRelease(r.admin, r.repo, gitea.CreateReleaseOption{TagName: "v3.0.0", Target: "main", Title: "Three"}); err != nil {
			return fmt.Errorf("preparing: %w", err)
		}
		if _, err := r.c.DeleteReleaseByTag(r.admin, r.repo, "v3.0.0"); err != nil {
			return err
		}
		_, resp, err := r.c.GetReleaseByTag(r.admin, r.repo, "v3.0.0")
		return notFound(resp, err, "release")
	})
}

// orgs: the organisation, its members, teams, labels and repositories.
func (r *Run) orgs() {
	r.org = r.name("sdk-org")
	r.do("CreateOrg", func() error {
		o, _, err := r.c.CreateOrg(gitea.CreateOrgOption{Name: r.org, FullName: "SDK Org", Visibility: gitea.VisibleTypePublic})
		if err != nil {
			return err
		}
		return expect(o.UserName == r.org && o.FullName == "SDK Org", "org %+v", o)
	})
	r.do("GetOrg", func() error {
		o, _, err := r.c.GetOrg(r.org)
		if err != nil {
			return err
		}
		return expect(o.UserName == r.org && o.Visibility == "public", "org %+v", o)
	})
	r.do("EditOrg", func() error {
		if _, err := r.c.EditOrg(r.org, gitea.EditOrgOption{Description: "made by the SDK"}); err != nil {
			return err
		}
		o, _, err := r.c.GetOrg(r.org)
		if err != nil {
			return err
		}
		return expect(o.Description == "made by the SDK", "description %q", o.Description)
	})
	hasOrg := func(os []*gitea.Organization) error {
		return expect(slices.ContainsFunc(os, func(o *gitea.Organization) bool { return o.UserName == r.org }), "%s not among %d", r.org, len(os))
	}
	r.do("ListMyOrgs", func() error {
		os, _, err := r.c.ListMyOrgs(gitea.ListOrgsOptions{})
		if err != nil {
			return err
		}
		return hasOrg(os)
	})
	r.do("ListUserOrgs", func() error {
		os, _, err := r.c.ListUserOrgs(r.admin, gitea.ListOrgsOptions{})
		if err != nil {
			return err
		}
		return hasOrg(os)
	})
	r.do("ListOrgs", func() error {
		os, _, err := r.c.ListOrgs(gitea.ListOrgsOptions{ListOptions: gitea.ListOptions{PageSize: 50}})
		if err != nil {
			return err
		}
		return hasOrg(os)
	})
	orgRepo := "org-repo"
	r.do("CreateOrgRepo", func() error {
		repo, _, err := r.c.CreateOrgRepo(r.org, gitea.CreateRepoOption{Name: orgRepo, AutoInit: true})
		if err != nil {
			return err
		}
		return expect(repo.Owner.UserName == r.org && repo.Name == orgRepo, "repo %q", repo.FullName)
	})
	r.do("ListOrgRepos", func() error {
		rs, _, err := r.c.ListOrgRepos(r.org, gitea.ListOrgReposOptions{})
		if err != nil {
			return err
		}
		return expect(len(rs) == 1 && rs[0].Name == orgRepo, "%d repos", len(rs))
	})
	r.do("TransferRepo", func() error {
		// A repository of the admin moves into the organisation (and is removed again, so the org can be deleted).
		moving := r.name("sdk-moving")
		if _, _, err := r.c.CreateRepo(gitea.CreateRepoOption{Name: moving}); err != nil {
			return fmt.Errorf("preparing: %w", err)
		}
		repo, _, err := r.c.TransferRepo(r.admin, moving, gitea.TransferRepoOption{NewOwner: r.org})
		if err != nil {
			return err
		}
		if err := expect(repo.Owner.UserName == r.org && repo.Name == moving, "repo %q", repo.FullName); err != nil {
			return err
		}
		_, err = r.c.DeleteRepo(r.org, moving)
		return err
	})

	var team *gitea.Team
	r.do("CreateTeam", func() (err error) {
		team, _, err = r.c.CreateTeam(r.org, gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
			Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitIssues, gitea.RepoUnitPulls}})
		if err != nil {
			return err
		}
		return expect(team.Name == "devs" && team.Permission == gitea.AccessModeWrite, "team %+v", team)
	})
	r.do("GetTeam", func() error {
		t, _, err := r.c.GetTeam(team.ID)
		if err != nil {
			return err
		}
		return expect(t.Name == "devs", "team %q", t.Name)
	})
	r.do("EditTeam", func() error {
		desc := "the developers"
		if _, err := r.c.EditTeam(team.ID, gitea.EditTeamOption{Name: "devs", Description: &desc, Permission: gitea.AccessModeWrite}); err != nil {
			return err
		}
		t, _, err := r.c.GetTeam(team.ID)
		if err != nil {
			return err
		}
		return expect(t.Description == desc, "description %q", t.Description)
	})
	r.do("ListOrgTeams", func() error {
		ts, _, err := r.c.ListOrgTeams(r.org, gitea.ListTeamsOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(ts, func(t *gitea.Team) bool { return t.ID == team.ID }), "devs not among %d", len(ts))
	})
	r.do("AddTeamMember", func() error { return status2(r.c.AddTeamMember(team.ID, r.otherUser))(204) })
	r.do("GetTeamMember", func() error {
		u, _, err := r.c.GetTeamMember(team.ID, r.otherUser)
		if err != nil {
			return err
		}
		return expect(u.UserName == r.otherUser, "member %q", u.UserName)
	})
	r.do("ListTeamMembers", func() error {
		us, _, err := r.c.ListTeamMembers(team.ID, gitea.ListTeamMembersOptions{})
		if err != nil {
			return err
		}
		return expect(len(us) == 1 && us[0].UserName == r.otherUser, "%d members", len(us))
	})
	r.do("AddTeamRepository", func() error { return status2(r.c.AddTeamRepository(team.ID, r.org, orgRepo))(204) })
	r.do("GetTeamRepository", func() error {
		repo, _, err := r.c.GetTeamRepository(team.ID, r.org, orgRepo)
		if err != nil {
			return err
		}
		return expect(repo.Name == orgRepo, "repo %q", repo.Name)
	})
	r.do("ListTeamRepositories", func() error {
		rs, _, err := r.c.ListTeamRepositories(team.ID, gitea.ListTeamRepositoriesOptions{})
		if err != nil {
			return err
		}
		return expect(len(rs) == 1 && rs[0].Name == orgRepo, "%d repos", len(rs))
	})

	r.do("CheckOrgMembership", func() error {
		ok, _, err := r.c.CheckOrgMembership(r.org, r.otherUser)
		if err != nil {
			return err
		}
		return expect(ok, "bob is no member")
	})
	r.do("ListOrgMembership", func() error {
		us, _, err := r.c.ListOrgMembership(r.org, gitea.ListOrgMembershipOption{})
		if err != nil {
			return err
		}
		return expect(len(us) == 2, "%d members (want the admin and bob)", len(us))
	})
	r.do("SetPublicOrgMembership", func() error {
		if _, err := r.c.SetPublicOrgMembership(r.org, r.admin, true); err != nil {
			return err
		}
		ok, _, err := r.c.CheckPublicOrgMembership(r.org, r.admin)
		if err != nil {
			return err
		}
		if err := expect(ok, "not public after publicizing"); err != nil {
			return err
		}
		if _, err := r.c.SetPublicOrgMembership(r.org, r.admin, false); err != nil {
			return err
		}
		ok, _, err = r.c.CheckPublicOrgMembership(r.org, r.admin)
		if err != nil {
			return err
		}
		return expect(!ok, "still public after concealing")
	})
	r.do("CheckPublicOrgMembership", func() error {
		if _, err := r.c.SetPublicOrgMembership(r.org, r.admin, true); err != nil {
			return err
		}
		ok, _, err := r.c.CheckPublicOrgMembership(r.org, r.admin)
		if err != nil {
			return err
		}
		return expect(ok, "not public")
	})
	r.do("ListPublicOrgMembership", func() error {
		us, _, err := r.c.ListPublicOrgMembership(r.org, gitea.ListOrgMembershipOption{})
		if err != nil {
			return err
		}
		return expect(len(us) == 1 && us[0].UserName == r.admin, "%d public members", len(us))
	})
	r.do("GetOrgPermissions", func() error {
		p, _, err := r.c.GetOrgPermissions(r.org, r.otherUser)
		if err != nil {
			return err
		}
		return expect(p.CanRead && !p.IsOwner, "permissions %+v", p)
	})
	r.do("RemoveTeamRepository", func() error {
		if _, err := r.c.RemoveTeamRepository(team.ID, r.org, orgRepo); err != nil {
			return err
		}
		_, resp, err := r.c.GetTeamRepository(team.ID, r.org, orgRepo)
		return notFound(resp, err, "team repository")
	})
	r.do("RemoveTeamMember", func() error {
		if _, err := r.c.RemoveTeamMember(team.ID, r.otherUser); err != nil {
			return err
		}
		_, resp, err := r.c.GetTeamMember(team.ID, r.otherUser)
		return notFound(resp, err, "team member")
	})
	r.do("DeleteOrgMembership", func() error {
		if _, err := r.c.AddTeamMember(team.ID, r.otherUser); err != nil {
			return fmt.Errorf("preparing: %w", err)
		}
		if _, err := r.c.DeleteOrgMembership(r.org, r.otherUser); err != nil {
			return err
		}
		ok, _, err := r.c.CheckOrgMembership(r.org, r.otherUser)
		if err != nil {
			return err
		}
		return expect(!ok, "bob still a member")
	})
	r.do("DeleteTeam", func() error {
		if _, err := r.c.DeleteTeam(team.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetTeam(team.ID)
		return notFound(resp, err, "team")
	})

	var label *gitea.Label
	r.do("CreateOrgLabel", func() (err error) {
		label, _, err = r.c.CreateOrgLabel(r.org, gitea.CreateOrgLabelOption{Name: "triage", Color: "#aabbcc"})
		if err != nil {
			return err
		}
		return expect(label.Name == "triage" && label.Color == "aabbcc", "label %+v", label)
	})
	r.do("GetOrgLabel", func() error {
		l, _, err := r.c.GetOrgLabel(r.org, label.ID)
		if err != nil {
			return err
		}
		return expect(l.Name == "triage", "label %q", l.Name)
	})
	r.do("EditOrgLabel", func() error {
		name := "needs-triage"
		l, _, err := r.c.EditOrgLabel(r.org, label.ID, gitea.EditOrgLabelOption{Name: &name})
		if err != nil {
			return err
		}
		return expect(l.Name == name, "label %q", l.Name)
	})
	r.do("ListOrgLabels", func() error {
		ls, _, err := r.c.ListOrgLabels(r.org, gitea.ListOrgLabelsOptions{})
		if err != nil {
			return err
		}
		return expect(len(ls) == 1 && ls[0].ID == label.ID, "%d labels", len(ls))
	})
	r.do("DeleteOrgLabel", func() error {
		if _, err := r.c.DeleteOrgLabel(r.org, label.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetOrgLabel(r.org, label.ID)
		return notFound(resp, err, "org label")
	})
}

// hooks of a repository, an organisation, the user and the instance.
func (r *Run) hooks() {
	opt := gitea.CreateHookOption{Type: gitea.HookTypeGitea, Active: true, Events: []string{"push"},
		Config: map[string]string{"url": "http://127.0.0.1:9/hook", "content_type": "json"}}
	type scope struct {
		prefix string
		create func() (*gitea.Hook, *gitea.Response, error)
		get    func(int64) (*gitea.Hook, *gitea.Response, error)
		list   func() ([]*gitea.Hook, *gitea.Response, error)
		edit   func(int64, gitea.EditHookOption) error
		del    func(int64) (*gitea.Response, error)
	}
	scopes := []scope{
		{"Repo", func() (*gitea.Hook, *gitea.Response, error) { return r.c.CreateRepoHook(r.admin, r.repo, opt) },
			func(id int64) (*gitea.Hook, *gitea.Response, error) { return r.c.GetRepoHook(r.admin, r.repo, id) },
			func() ([]*gitea.Hook, *gitea.Response, error) {
				return r.c.ListRepoHooks(r.admin, r.repo, gitea.ListHooksOptions{})
			},
			func(id int64, o gitea.EditHookOption) error {
				_, err := r.c.EditRepoHook(r.admin, r.repo, id, o)
				return err
			},
			func(id int64) (*gitea.Response, error) { return r.c.DeleteRepoHook(r.admin, r.repo, id) }},
		{"Org", func() (*gitea.Hook, *gitea.Response, error) { return r.c.CreateOrgHook(r.org, opt) },
			func(id int64) (*gitea.Hook, *gitea.Response, error) { return r.c.GetOrgHook(r.org, id) },
			func() ([]*gitea.Hook, *gitea.Response, error) {
				return r.c.ListOrgHooks(r.org, gitea.ListHooksOptions{})
			},
			func(id int64, o gitea.EditHookOption) error { _, err := r.c.EditOrgHook(r.org, id, o); return err },
			func(id int64) (*gitea.Response, error) { return r.c.DeleteOrgHook(r.org, id) }},
		{"My", func() (*gitea.Hook, *gitea.Response, error) { return r.c.CreateMyHook(opt) },
			r.c.GetMyHook,
			func() ([]*gitea.Hook, *gitea.Response, error) { return r.c.ListMyHooks(gitea.ListHooksOptions{}) },
			func(id int64, o gitea.EditHookOption) error { _, err := r.c.EditMyHook(id, o); return err },
			r.c.DeleteMyHook},
		{"Admin", func() (*gitea.Hook, *gitea.Response, error) { return r.c.CreateAdminHook(opt) },
			r.c.GetAdminHook,
			func() ([]*gitea.Hook, *gitea.Response, error) {
				return r.c.ListAdminHooks(gitea.ListAdminHooksOptions{Type: "all"})
			},
			func(id int64, o gitea.EditHookOption) error { _, _, err := r.c.EditAdminHook(id, o); return err },
			r.c.DeleteAdminHook},
	}
	for _, s := range scopes {
		var hook *gitea.Hook
		r.do("Create"+s.prefix+"Hook", func() (err error) {
			hook, _, err = s.create()
			if err != nil {
				return err
			}
			return expect(hook.ID > 0 && hook.Type == "gitea" && hook.Active && slices.Equal(hook.Events, []string{"push"}) &&
				hook.Config["url"] == "http://127.0.0.1:9/hook", "hook %+v", hook)
		})
		r.do("Get"+s.prefix+"Hook", func() error {
			h, _, err := s.get(hook.ID)
			if err != nil {
				return err
			}
			return expect(h.ID == hook.ID && h.Config["content_type"] == "json", "hook %+v", h)
		})
		r.do("List"+s.prefix+"Hooks", func() error {
			hs, _, err := s.list()
			if err != nil {
				return err
			}
			return expect(slices.ContainsFunc(hs, func(h *gitea.Hook) bool { return h.ID == hook.ID }), "hook not among %d", len(hs))
		})
		r.do("Edit"+s.prefix+"Hook", func() error {
			if err := s.edit(hook.ID, gitea.EditHookOption{Events: []string{"push", "issues"}}); err != nil {
				return err
			}
			h, _, err := s.get(hook.ID)
			if err != nil {
				return err
			}
			return expect(slices.Contains(h.Events, "issues"), "events %v", h.Events)
		})
		if s.prefix == "Repo" {
			r.do("TestWebhook", func() error { return status2(r.c.TestWebhook(r.admin, r.repo, hook.ID, ""))(204) })
		}
		r.do("Delete"+s.prefix+"Hook", func() error {
			if _, err := s.del(hook.ID); err != nil {
				return err
			}
			_, resp, err := s.get(hook.ID)
			return notFound(resp, err, "hook")
		})
	}
}

// actions: secrets and variables of a repository, an organisation and the user; runners and registration tokens.
func (r *Run) actions() {
	r.do("CreateRepoActionSecret", func() error {
		return status2(r.c.CreateRepoActionSecret(r.admin, r.repo, "DEPLOY_KEY", gitea.CreateOrUpdateSecretOption{Data: "s3cret"}))(201)
	})
	r.do("ListRepoActionSecret", func() error {
		ss, _, err := r.c.ListRepoActionSecret(r.admin, r.repo, gitea.ListRepoActionSecretOption{})
		if err != nil {
			return err
		}
		return expect(len(ss) == 1 && ss[0].Name == "DEPLOY_KEY" && ss[0].Data == "", "secrets %v", ss)
	})
	r.do("DeleteRepoActionSecret", func() error {
		if _, err := r.c.DeleteRepoActionSecret(r.admin, r.repo, "DEPLOY_KEY"); err != nil {
			return err
		}
		ss, _, err := r.c.ListRepoActionSecret(r.admin, r.repo, gitea.ListRepoActionSecretOption{})
		if err != nil {
			return err
		}
		return expect(len(ss) == 0, "%d secrets", len(ss))
	})
	r.do("CreateRepoActionVariable", func() error {
		return status2(r.c.CreateRepoActionVariable(r.admin, r.repo, "COLOUR", "blue"))(201)
	})
	r.do("GetRepoActionVariable", func() error {
		v, _, err := r.c.GetRepoActionVariable(r.admin, r.repo, "COLOUR")
		if err != nil {
			return err
		}
		return expect(v.Name == "COLOUR" && v.Value == "blue", "variable %+v", v)
	})
	r.do("UpdateRepoActionVariable", func() error {
		if _, err := r.c.UpdateRepoActionVariable(r.admin, r.repo, "COLOUR", "green"); err != nil {
			return err
		}
		v, _, err := r.c.GetRepoActionVariable(r.admin, r.repo, "COLOUR")
		if err != nil {
			return err
		}
		return expect(v.Value == "green", "value %q", v.Value)
	})
	r.do("ListRepoActionVariable", func() error {
		vs, _, err := r.c.ListRepoActionVariable(r.admin, r.repo, gitea.ListRepoActionVariableOption{})
		if err != nil {
			return err
		}
		return expect(len(vs) == 1 && vs[0].Value == "green", "variables %v", vs)
	})
	r.do("DeleteRepoActionVariable", func() error {
		if _, err := r.c.DeleteRepoActionVariable(r.admin, r.repo, "COLOUR"); err != nil {
			return err
		}
		_, resp, err := r.c.GetRepoActionVariable(r.admin, r.repo, "COLOUR")
		return notFound(resp, err, "variable")
	})

	r.do("CreateOrgActionSecret", func() error {
		return status2(r.c.CreateOrgActionSecret(r.org, "ORG_KEY", gitea.CreateOrUpdateSecretOption{Data: "s3cret"}))(201)
	})
	r.do("ListOrgActionSecret", func() error {
		ss, _, err := r.c.ListOrgActionSecret(r.org, gitea.ListOrgActionSecretOption{})
		if err != nil {
			return err
		}
		return expect(len(ss) == 1 && ss[0].Name == "ORG_KEY", "secrets %v", ss)
	})
	r.do("DeleteOrgActionSecret", func() error {
		if _, err := r.c.DeleteOrgActionSecret(r.org, "ORG_KEY"); err != nil {
			return err
		}
		ss, _, err := r.c.ListOrgActionSecret(r.org, gitea.ListOrgActionSecretOption{})
		if err != nil {
			return err
		}
		return expect(len(ss) == 0, "%d secrets", len(ss))
	})
	r.do("CreateOrgActionVariable", func() error {
		return status2(r.c.CreateOrgActionVariable(r.org, "REGION", gitea.CreateActionVariableOption{Value: "eu"}))(201)
	})
	r.do("GetOrgActionVariable", func() error {
		v, _, err := r.c.GetOrgActionVariable(r.org, "REGION")
		if err != nil {
			return err
		}
		return expect(v.Name == "REGION" && v.Data == "eu", "variable %+v", v)
	})
	r.do("UpdateOrgActionVariable", func() error {
		if _, err := r.c.UpdateOrgActionVariable(r.org, "REGION", gitea.UpdateActionVariableOption{Name: "REGION", Value: "us"}); err != nil {
			return err
		}
		v, _, err := r.c.GetOrgActionVariable(r.org, "REGION")
		if err != nil {
			return err
		}
		return expect(v.Data == "us", "value %q", v.Data)
	})
	r.do("ListOrgActionVariable", func() error {
		vs, _, err := r.c.ListOrgActionVariable(r.org, gitea.ListOrgActionVariableOption{})
		if err != nil {
			return err
		}
		return expect(len(vs) == 1 && vs[0].Name == "REGION", "variables %v", vs)
	})
	r.do("DeleteOrgActionVariable", func() error {
		if _, err := r.c.DeleteOrgActionVariable(r.org, "REGION"); err != nil {
			return err
		}
		_, resp, err := r.c.GetOrgActionVariable(r.org, "REGION")
		return notFound(resp, err, "variable")
	})

	r.do("CreateUserActionSecret", func() error {
		return status2(r.c.CreateUserActionSecret("MY_KEY", gitea.CreateOrUpdateSecretOption{Data: "s3cret"}))(201)
	})
	r.do("DeleteUserActionSecret", func() error { return status2(r.c.DeleteUserActionSecret("MY_KEY"))(204) })
	r.do("CreateUserActionVariable", func() error {
		return status2(r.c.CreateUserActionVariable("EDITOR", gitea.CreateActionVariableOption{Value: "vim"}))(201)
	})
	r.do("GetUserActionVariable", func() error {
		v, _, err := r.c.GetUserActionVariable("EDITOR")
		if err != nil {
			return err
		}
		return expect(v.Name == "EDITOR" && v.Data == "vim", "variable %+v", v)
	})
	r.do("UpdateUserActionVariable", func() error {
		if _, err := r.c.UpdateUserActionVariable("EDITOR", gitea.UpdateActionVariableOption{Name: "EDITOR", Value: "emacs"}); err != nil {
			return err
		}
		v, _, err := r.c.GetUserActionVariable("EDITOR")
		if err != nil {
			return err
		}
		return expect(v.Data == "emacs", "value %q", v.Data)
	})
	r.do("ListUserActionVariable", func() error {
		vs, _, err := r.c.ListUserActionVariable(gitea.ListOptions{})
		if err != nil {
			return err
		}
		return expect(len(vs) == 1 && vs[0].Name == "EDITOR", "variables %v", vs)
	})
	r.do("DeleteUserActionVariable", func() error {
		if _, err := r.c.DeleteUserActionVariable("EDITOR"); err != nil {
			return err
		}
		_, resp, err := r.c.GetUserActionVariable("EDITOR")
		return notFound(resp, err, "variable")
	})

	// Runners: registration tokens for each scope, and empty runner lists (registering one takes the runner
	// protocol, which test/e2e/actions-runners.e2e-spec.ts drives).
	token := func(get func() (*gitea.RegistrationToken, *gitea.Response, error)) func() error {
		return func() error {
			t, _, err := get()
			if err != nil {
				return err
			}
			return expect(len(t.Token) >= 20, "token %q", t.Token)
		}
	}
	r.do("CreateRepoActionRunnerRegistrationToken", token(func() (*gitea.RegistrationToken, *gitea.Response, error) {
		return r.c.CreateRepoActionRunnerRegistrationToken(r.admin, r.repo)
	}))
	r.do("CreateOrgActionRunnerRegistrationToken", token(func() (*gitea.RegistrationToken, *gitea.Response, error) {
		return r.c.CreateOrgActionRunnerRegistrationToken(r.org)
	}))
	r.do("CreateUserActionRunnerRegistrationToken", token(r.c.CreateUserActionRunnerRegistrationToken))
	r.do("CreateAdminActionRunnerRegistrationToken", token(r.c.CreateAdminActionRunnerRegistrationToken))
	none := func(list func() (*gitea.ActionRunnersResponse, *gitea.Response, error)) func() error {
		return func() error {
			l, _, err := list()
			if err != nil {
				return err
			}
			return expect(l.TotalCount == 0 && len(l.Runners) == 0, "runners %+v", l)
		}
	}
	r.do("ListRepoActionRunners", none(func() (*gitea.ActionRunnersResponse, *gitea.Response, error) {
		return r.c.ListRepoActionRunners(r.admin, r.repo, gitea.ListActionRunnersOptions{})
	}))
	r.do("ListOrgActionRunners", none(func() (*gitea.ActionRunnersResponse, *gitea.Response, error) {
		return r.c.ListOrgActionRunners(r.org, gitea.ListActionRunnersOptions{})
	}))
	r.do("ListUserActionRunners", none(func() (*gitea.ActionRunnersResponse, *gitea.Response, error) {
		return r.c.ListUserActionRunners(gitea.ListActionRunnersOptions{})
	}))
	r.do("ListAdminActionRunners", func() error {
		_, _, err := r.c.ListAdminActionRunners(gitea.ListActionRunnersOptions{})
		return err // other runs on the same instance may have runners: decoding is the check
	})
}

// notifications: bob comments on the admin's issue #1 (the admin watches the repository), the admin reads it.
func (r *Run) notifications() {
	if _, _, err := r.other.CreateIssueComment(r.admin, r.repo, 1, gitea.CreateIssueCommentOption{Body: "ping"}); err != nil {
		fmt.Fprintf(os.Stderr, "preparing notifications: %v\n", err)
	}
	var thread *gitea.NotificationThread
	r.do("ListNotifications", func() error {
		return waitFor("bob's comment to notify the admin", func() (bool, error) {
			ts, _, err := r.c.ListNotifications(gitea.ListNotificationOptions{Status: []gitea.NotifyStatus{gitea.NotifyStatusUnread}})
			for _, t := range ts {
				if t.Repository != nil && t.Repository.Name == r.repo && t.Subject != nil && t.Subject.Type == gitea.NotifySubjectIssue {
					thread = t
				}
			}
			return thread != nil, err
		})
	})
	r.do("CheckNotifications", func() error {
		n, _, err := r.c.CheckNotifications()
		if err != nil {
			return err
		}
		return expect(n >= 1, "%d new", n)
	})
	r.do("ListRepoNotifications", func() error {
		ts, _, err := r.c.ListRepoNotifications(r.admin, r.repo, gitea.ListNotificationOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(ts, func(t *gitea.NotificationThread) bool { return t.ID == thread.ID }), "thread not among %d", len(ts))
	})
	r.do("GetNotification", func() error {
		t, _, err := r.c.GetNotification(thread.ID)
		if err != nil {
			return err
		}
		return expect(t.ID == thread.ID && t.Unread && t.Subject.Title == "It breaks", "thread %+v", t)
	})
	r.do("ReadNotification", func() error {
		t, _, err := r.c.ReadNotification(thread.ID)
		if err != nil {
			return err
		}
		return expect(t.ID == thread.ID && !t.Unread, "thread %+v", t)
	})
	r.do("ReadRepoNotifications", func() error {
		ts, _, err := r.c.ReadRepoNotifications(r.admin, r.repo, gitea.MarkNotificationOptions{
			Status: []gitea.NotifyStatus{gitea.NotifyStatusRead}, ToStatus: gitea.NotifyStatusUnread})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(ts, func(t *gitea.NotificationThread) bool { return t.ID == thread.ID && t.Unread }), "thread not marked among %d", len(ts))
	})
	r.do("ReadNotifications", func() error {
		ts, _, err := r.c.ReadNotifications(gitea.MarkNotificationOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(ts, func(t *gitea.NotificationThread) bool { return t.ID == thread.ID && !t.Unread }),
			"thread not marked among %d", len(ts))
	})
}

// packages: a generic package uploaded over plain HTTP (the SDK has no upload), then listed, linked and deleted.
func (r *Run) packages() {
	const name, version = "sdk-tool", "1.0.0"
	upload := fmt.Sprintf("%s/api/packages/%s/generic/%s/%s/tool.txt", r.url, url.PathEscape(r.admin), name, version)
	req, _ := http.NewRequest(http.MethodPut, upload, bytes.NewReader([]byte("a tool\n")))
	req.Header.Set("Authorization", "token "+r.token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusCreated {
		fmt.Fprintf(os.Stderr, "uploading a generic package: %v %v\n", err, resp)
	}
	r.do("ListPackages", func() error {
		ps, _, err := r.c.ListPackages(r.admin, gitea.ListPackagesOptions{})
		if err != nil {
			return err
		}
		return expect(len(ps) == 1 && ps[0].Name == name && ps[0].Type == "generic", "packages %v", ps)
	})
	r.do("ListPackageVersions", func() error {
		ps, _, err := r.c.ListPackageVersions(r.admin, "generic", name, gitea.ListPackagesOptions{})
		if err != nil {
			return err
		}
		return expect(len(ps) == 1 && ps[0].Version == version, "versions %v", ps)
	})
	r.do("GetPackage", func() error {
		p, _, err := r.c.GetPackage(r.admin, "generic", name, version)
		if err != nil {
			return err
		}
		return expect(p.Name == name && p.Version == version && p.Owner != nil && p.Owner.UserName == r.admin, "package %+v", p)
	})
	r.do("GetLatestPackage", func() error {
		p, _, err := r.c.GetLatestPackage(r.admin, "generic", name)
		if err != nil {
			return err
		}
		return expect(p.Version == version, "version %q", p.Version)
	})
	r.do("ListPackageFiles", func() error {
		fs, _, err := r.c.ListPackageFiles(r.admin, "generic", name, version)
		if err != nil {
			return err
		}
		return expect(len(fs) == 1 && fs[0].Name == "tool.txt" && fs[0].Size == 7, "files %v", fs)
	})
	r.do("LinkPackage", func() error {
		if _, err := r.c.LinkPackage(r.admin, "generic", name, r.repo); err != nil {
			return err
		}
		p, _, err := r.c.GetPackage(r.admin, "generic", name, version)
		if err != nil {
			return err
		}
		return expect(p.Repository != nil && p.Repository.Name == r.repo, "repository %v", p.Repository)
	})
	r.do("UnlinkPackage", func() error {
		if _, err := r.c.UnlinkPackage(r.admin, "generic", name); err != nil {
			return err
		}
		p, _, err := r.c.GetPackage(r.admin, "generic", name, version)
		if err != nil {
			return err
		}
		return expect(p.Repository == nil, "still linked to %v", p.Repository)
	})
	r.do("DeletePackage", func() error {
		if _, err := r.c.DeletePackage(r.admin, "generic", name, version); err != nil {
			return err
		}
		_, resp, err := r.c.GetPackage(r.admin, "generic", name, version)
		return notFound(resp, err, "package")
	})
}

// cleanup deletes what the run made, through the SDK: the deletes are calls like the others.
func (r *Run) cleanup() {
	r.do("UnWatchRepo", func() error {
		if _, err := r.c.UnWatchRepo(r.admin, r.repo); err != nil {
			return err
		}
		ok, _, err := r.c.CheckRepoWatch(r.admin, r.repo)
		if err != nil {
			return err
		}
		return expect(!ok, "still watching")
	})
	r.do("DeleteCollaborator", func() error {
		if _, err := r.c.DeleteCollaborator(r.admin, r.repo, r.otherUser); err != nil {
			return err
		}
		ok, _, err := r.c.IsCollaborator(r.admin, r.repo, r.otherUser)
		if err != nil {
			return err
		}
		return expect(!ok, "bob still a collaborator")
	})
	r.do("DeleteRepo", func() error {
		if _, err := r.c.DeleteRepo(r.admin, r.repo); err != nil {
			return err
		}
		_, resp, err := r.c.GetRepo(r.admin, r.repo)
		return notFound(resp, err, "repository")
	})
	r.do("DeleteOrg", func() error {
		if _, err := r.c.DeleteRepo(r.org, "org-repo"); err != nil {
			return fmt.Errorf("deleting the org's repository first: %w", err)
		}
		if _, err := r.c.DeleteOrg(r.org); err != nil {
			return err
		}
		_, resp, err := r.c.GetOrg(r.org)
		return notFound(resp, err, "organisation")
	})
	r.do("AdminDeleteUser", func() error {
		for _, repo := range []string{r.repo, r.name("bob-repo")} {
			if _, err := r.c.DeleteRepo(r.otherUser, repo); err != nil {
				return fmt.Errorf("deleting bob's %s first: %w", repo, err)
			}
		}
		if _, err := r.c.AdminDeleteUser(r.otherUser); err != nil {
			return err
		}
		_, resp, err := r.c.GetUserInfo(r.otherUser)
		return notFound(resp, err, "user")
	})
}
