package main

import (
	"encoding/base64"
	"slices"

	"code.gitea.io/sdk/gitea"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func (r *Run) repos() {
	r.repo = r.name("sdk-repo")
	var created *gitea.Repository
	r.do("CreateRepo", func() (err error) {
		created, _, err = r.c.CreateRepo(gitea.CreateRepoOption{Name: r.repo, Description: "made by the Gitea SDK",
			AutoInit: true, DefaultBranch: "main", Readme: "Default"})
		if err != nil {
			return err
		}
		return expect(created.Name == r.repo && created.DefaultBranch == "main" && !created.Empty, "repo %q branch %q empty %v",
			created.Name, created.DefaultBranch, created.Empty)
	})
	r.do("GetRepo", func() error {
		repo, _, err := r.c.GetRepo(r.admin, r.repo)
		if err != nil {
			return err
		}
		return expect(repo.ID == created.ID && repo.FullName == r.admin+"/"+r.repo && repo.Permissions != nil && repo.Permissions.Admin,
			"repo %q perms %+v", repo.FullName, repo.Permissions)
	})
	r.do("GetRepoByID", func() error {
		repo, _, err := r.c.GetRepoByID(created.ID)
		if err != nil {
			return err
		}
		return expect(repo.Name == r.repo, "repo %q", repo.Name)
	})
	r.do("EditRepo", func() error {
		desc := "edited by the Gitea SDK"
		repo, _, err := r.c.EditRepo(r.admin, r.repo, gitea.EditRepoOption{Description: &desc})
		if err != nil {
			return err
		}
		return expect(repo.Description == desc, "description %q", repo.Description)
	})
	listed := func(repos []*gitea.Repository) error {
		return expect(slices.ContainsFunc(repos, func(x *gitea.Repository) bool { return x.ID == created.ID }), "%s not listed among %d", r.repo, len(repos))
	}
	r.do("ListMyRepos", func() error {
		repos, _, err := r.c.ListMyRepos(gitea.ListReposOptions{ListOptions: gitea.ListOptions{PageSize: 50}})
		if err != nil {
			return err
		}
		return listed(repos)
	})
	r.do("ListUserRepos", func() error {
		repos, _, err := r.c.ListUserRepos(r.admin, gitea.ListReposOptions{ListOptions: gitea.ListOptions{PageSize: 50}})
		if err != nil {
			return err
		}
		return listed(repos)
	})
	r.do("SearchRepos", func() error {
		repos, _, err := r.c.SearchRepos(gitea.SearchRepoOptions{Keyword: r.repo})
		if err != nil {
			return err
		}
		return listed(repos)
	})

	// Topics
	r.do("SetRepoTopics", func() error {
		return status2(r.c.SetRepoTopics(r.admin, r.repo, []string{"sdk", "go"}))(204)
	})
	r.do("AddRepoTopic", func() error { return status2(r.c.AddRepoTopic(r.admin, r.repo, "cairn"))(204) })
	r.do("DeleteRepoTopic", func() error { return status2(r.c.DeleteRepoTopic(r.admin, r.repo, "go"))(204) })
	r.do("ListRepoTopics", func() error {
		topics, _, err := r.c.ListRepoTopics(r.admin, r.repo, gitea.ListRepoTopicsOptions{})
		if err != nil {
			return err
		}
		slices.Sort(topics)
		return expect(slices.Equal(topics, []string{"cairn", "sdk"}), "topics %v", topics)
	})

	// Stars and watching
	r.do("StarRepo", func() error { return status2(r.c.StarRepo(r.admin, r.repo))(204) })
	r.do("IsRepoStarring", func() error {
		ok, _, err := r.c.IsRepoStarring(r.admin, r.repo)
		if err != nil {
			return err
		}
		return expect(ok, "not starring")
	})
	r.do("ListRepoStargazers", func() error {
		users, _, err := r.c.ListRepoStargazers(r.admin, r.repo, gitea.ListStargazersOptions{})
		if err != nil {
			return err
		}
		return expect(len(users) == 1 && users[0].UserName == r.admin, "stargazers %d", len(users))
	})
	r.do("GetMyStarredRepos", func() error {
		repos, _, err := r.c.GetMyStarredRepos()
		if err != nil {
			return err
		}
		return listed(repos)
	})
	r.do("GetStarredRepos", func() error {
		repos, _, err := r.c.GetStarredRepos(r.admin)
		if err != nil {
			return err
		}
		return listed(repos)
	})
	r.do("UnStarRepo", func() error {
		if _, err := r.c.UnStarRepo(r.admin, r.repo); err != nil {
			return err
		}
		ok, _, err := r.c.IsRepoStarring(r.admin, r.repo)
		if err != nil {
			return err
		}
		return expect(!ok, "still starring")
	})
	r.do("WatchRepo", func() error { return status2(r.c.WatchRepo(r.admin, r.repo))(200) })
	r.do("CheckRepoWatch", func() error {
		ok, _, err := r.c.CheckRepoWatch(r.admin, r.repo)
		if err != nil {
			return err
		}
		return expect(ok, "not watching")
	})
	r.do("ListRepoSubscribers", func() error {
		users, _, err := r.c.ListRepoSubscribers(r.admin, r.repo, gitea.ListOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(users, func(u *gitea.User) bool { return u.UserName == r.admin }), "watchers %d", len(users))
	})
	r.do("GetMyWatchedRepos", func() error {
		repos, _, err := r.c.GetMyWatchedRepos()
		if err != nil {
			return err
		}
		return listed(repos)
	})
	r.do("GetWatchedRepos", func() error {
		repos, _, err := r.c.GetWatchedRepos(r.admin)
		if err != nil {
			return err
		}
		return listed(repos)
	})

	// Collaborators (bob, with write access)
	r.do("AddCollaborator", func() error {
		write := gitea.AccessModeWrite
		return status2(r.c.AddCollaborator(r.admin, r.repo, r.otherUser, gitea.AddCollaboratorOption{Permission: &write}))(204)
	})
	r.do("IsCollaborator", func() error {
		ok, _, err := r.c.IsCollaborator(r.admin, r.repo, r.otherUser)
		if err != nil {
			return err
		}
		return expect(ok, "bob is no collaborator")
	})
	r.do("ListCollaborators", func() error {
		users, _, err := r.c.ListCollaborators(r.admin, r.repo, gitea.ListCollaboratorsOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(users, func(u *gitea.User) bool { return u.UserName == r.otherUser }), "bob not listed")
	})
	r.do("CollaboratorPermission", func() error {
		p, _, err := r.c.CollaboratorPermission(r.admin, r.repo, r.otherUser)
		if err != nil {
			return err
		}
		return expect(p.Permission == gitea.AccessModeWrite && p.User != nil && p.User.UserName == r.otherUser, "permission %+v", p)
	})
	r.do("GetAssignees", func() error {
		users, _, err := r.c.GetAssignees(r.admin, r.repo)
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(users, func(u *gitea.User) bool { return u.UserName == r.otherUser }), "bob not assignable")
	})

	// Deploy keys
	var dk *gitea.DeployKey
	r.do("CreateDeployKey", func() (err error) {
		dk, _, err = r.c.CreateDeployKey(r.admin, r.repo, gitea.CreateKeyOption{Title: "ci", Key: sshPublicKey(), ReadOnly: true})
		if err != nil {
			return err
		}
		return expect(dk.Title == "ci" && dk.ReadOnly && dk.ID > 0, "deploy key %+v", dk)
	})
	r.do("GetDeployKey", func() error {
		k, _, err := r.c.GetDeployKey(r.admin, r.repo, dk.ID)
		if err != nil {
			return err
		}
		return expect(k.Fingerprint == dk.Fingerprint, "fingerprint %q", k.Fingerprint)
	})
	r.do("ListDeployKeys", func() error {
		ks, _, err := r.c.ListDeployKeys(r.admin, r.repo, gitea.ListDeployKeysOptions{})
		if err != nil {
			return err
		}
		return expect(len(ks) == 1 && ks[0].ID == dk.ID, "deploy keys %d", len(ks))
	})
	r.do("DeleteDeployKey", func() error {
		if _, err := r.c.DeleteDeployKey(r.admin, r.repo, dk.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetDeployKey(r.admin, r.repo, dk.ID)
		return notFound(resp, err, "deploy key")
	})

	// Signing keys of the repository (the instance's)
	r.signingKeys("GetRepoSigningKeyGPG", "GetRepoSigningKeySSH",
		func() (string, *gitea.Response, error) { return r.c.GetRepoSigningKeyGPG(r.admin, r.repo) },
		func() (string, *gitea.Response, error) { return r.c.GetRepoSigningKeySSH(r.admin, r.repo) })

	// Forks: bob forks the repository
	r.do("CreateFork", func() error {
		fork, _, err := r.other.CreateFork(r.admin, r.repo, gitea.CreateForkOption{})
		if err != nil {
			return err
		}
		return expect(fork.Fork && fork.Owner.UserName == r.otherUser && fork.Parent != nil && fork.Parent.ID == created.ID,
			"fork %q fork=%v", fork.FullName, fork.Fork)
	})
	r.do("ListForks", func() error {
		forks, _, err := r.c.ListForks(r.admin, r.repo, gitea.ListForksOptions{})
		if err != nil {
			return err
		}
		return expect(len(forks) == 1 && forks[0].Owner.UserName == r.otherUser, "forks %d", len(forks))
	})
}

// status2 adapts the (resp, err) pair of SDK methods without a body to a status check.
func status2(resp *gitea.Response, err error) func(int) error {
	return func(want int) error { return status(resp, err, want) }
}
