package main

import (
	"io"
	"slices"
	"strings"

	"code.gitea.io/sdk/gitea"
)

// contents writes and reads files through the contents API; it leaves docs/guide.md on main and a branch "feature"
// one commit ahead of main (for the pull requests).
func (r *Run) contents() {
	var file *gitea.FileResponse
	r.do("CreateFile", func() (err error) {
		file, _, err = r.c.CreateFile(r.admin, r.repo, "docs/guide.md", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{Message: "add the guide", BranchName: "main"}, Content: b64("# Guide\n")})
		if err != nil {
			return err
		}
		return expect(file.Content != nil && file.Content.Path == "docs/guide.md" && file.Commit != nil && file.Commit.SHA != "",
			"file %+v", file.Content)
	})
	r.do("UpdateFile", func() (err error) {
		file, _, err = r.c.UpdateFile(r.admin, r.repo, "docs/guide.md", gitea.UpdateFileOptions{
			FileOptions: gitea.FileOptions{Message: "extend the guide"}, SHA: file.Content.SHA, Content: b64("# Guide\n\nRead me.\n")})
		if err != nil {
			return err
		}
		return expect(file.Content.Size == int64(len("# Guide\n\nRead me.\n")), "size %d", file.Content.Size)
	})
	r.do("GetContents", func() error {
		c, _, err := r.c.GetContents(r.admin, r.repo, "main", "docs/guide.md")
		if err != nil {
			return err
		}
		return expect(c.Type == "file" && c.Content != nil && *c.Content == b64("# Guide\n\nRead me.\n"), "contents %+v", c)
	})
	r.do("ListContents", func() error {
		list, _, err := r.c.ListContents(r.admin, r.repo, "main", "")
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(list, func(c *gitea.ContentsResponse) bool { return c.Name == "docs" && c.Type == "dir" }) &&
			slices.ContainsFunc(list, func(c *gitea.ContentsResponse) bool { return c.Name == "README.md" }), "%d entries", len(list))
	})
	r.do("GetFile", func() error {
		data, _, err := r.c.GetFile(r.admin, r.repo, "main", "docs/guide.md")
		if err != nil {
			return err
		}
		return expect(string(data) == "# Guide\n\nRead me.\n", "data %q", data)
	})
	r.do("GetFileReader", func() error {
		rc, _, err := r.c.GetFileReader(r.admin, r.repo, "main", "docs/guide.md")
		if err != nil {
			return err
		}
		defer rc.Close()
		data, err := io.ReadAll(rc)
		if err != nil {
			return err
		}
		return expect(string(data) == "# Guide\n\nRead me.\n", "data %q", data)
	})
	r.do("GetRawFile", func() error {
		data, _, err := r.c.GetRawFile(r.admin, r.repo, "docs/guide.md", "main")
		if err != nil {
			return err
		}
		return expect(string(data) == "# Guide\n\nRead me.\n", "data %q", data)
	})
	r.do("GetRawFileOrLFS", func() error {
		data, _, err := r.c.GetRawFileOrLFS(r.admin, r.repo, "docs/guide.md", "main")
		if err != nil {
			return err
		}
		return expect(string(data) == "# Guide\n\nRead me.\n", "data %q", data)
	})
	r.do("GetRepoFileContents", func() error {
		list, _, err := r.c.GetRepoFileContents(r.admin, r.repo, "main", gitea.GetFilesOptions{Files: []string{"docs/guide.md", "README.md"}})
		if err != nil {
			return err
		}
		return expect(len(list) == 2 && list[0] != nil && list[0].Path == "docs/guide.md", "%d files", len(list))
	})
	r.do("PostRepoFileContents", func() error {
		list, _, err := r.c.PostRepoFileContents(r.admin, r.repo, "main", gitea.GetFilesOptions{Files: []string{"docs/guide.md"}})
		if err != nil {
			return err
		}
		return expect(len(list) == 1 && list[0] != nil && list[0].Path == "docs/guide.md", "%d files", len(list))
	})
	r.do("ChangeFiles", func() error {
		f, _, err := r.c.ChangeFiles(r.admin, r.repo, gitea.ChangeFilesOptions{Message: "two files at once", Branch: "main",
			Files: []*gitea.ChangeFileOperation{
				{Operation: "create", Path: "a.txt", Content: b64("a\n")},
				{Operation: "create", Path: "b.txt", Content: b64("b\n")},
			}})
		if err != nil {
			return err
		}
		return expect(f.Commit != nil && f.Commit.SHA != "", "commit %+v", f.Commit)
	})
	r.do("DeleteFile", func() error {
		c, _, err := r.c.GetContents(r.admin, r.repo, "main", "b.txt")
		if err != nil {
			return err
		}
		if _, err := r.c.DeleteFile(r.admin, r.repo, "b.txt", gitea.DeleteFileOptions{
			FileOptions: gitea.FileOptions{Message: "drop b"}, SHA: c.SHA}); err != nil {
			return err
		}
		_, resp, err := r.c.GetContents(r.admin, r.repo, "main", "b.txt")
		return notFound(resp, err, "b.txt")
	})
	// the branch the pull requests start from: one commit ahead of main, made through the contents API
	r.do("CreateFile", func() error {
		f, _, err := r.c.CreateFile(r.admin, r.repo, "feature.txt", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{Message: "a feature", BranchName: "main", NewBranchName: "feature"}, Content: b64("new\n")})
		if err != nil {
			return err
		}
		return expect(f.Content.Name == "feature.txt", "file %+v", f.Content)
	})
}

// gitData: branches, protections, commits, compare, tags, refs, trees, blobs, statuses.
func (r *Run) gitData() {
	var mainSHA string
	r.do("GetRepoBranch", func() error {
		b, _, err := r.c.GetRepoBranch(r.admin, r.repo, "main")
		if err != nil {
			return err
		}
		mainSHA = b.Commit.ID
		return expect(b.Name == "main" && len(b.Commit.ID) == 40, "branch %q commit %q", b.Name, b.Commit.ID)
	})
	r.do("CreateBranch", func() error {
		b, _, err := r.c.CreateBranch(r.admin, r.repo, gitea.CreateBranchOption{BranchName: "scratch", OldBranchName: "main"})
		if err != nil {
			return err
		}
		return expect(b.Name == "scratch" && b.Commit.ID == mainSHA, "branch %q at %q", b.Name, b.Commit.ID)
	})
	r.do("ListRepoBranches", func() error {
		bs, _, err := r.c.ListRepoBranches(r.admin, r.repo, gitea.ListRepoBranchesOptions{})
		if err != nil {
			return err
		}
		names := []string{}
		for _, b := range bs {
			names = append(names, b.Name)
		}
		slices.Sort(names)
		return expect(slices.Equal(names, []string{"feature", "main", "scratch"}), "branches %v", names)
	})
	r.do("RenameRepoBranch", func() error {
		ok, _, err := r.c.RenameRepoBranch(r.admin, r.repo, "scratch", gitea.RenameRepoBranchOption{Name: "scratch2"})
		if err != nil {
			return err
		}
		if err := expect(ok, "not renamed"); err != nil {
			return err
		}
		_, _, err = r.c.GetRepoBranch(r.admin, r.repo, "scratch2")
		return err
	})
	r.do("DeleteRepoBranch", func() error {
		ok, _, err := r.c.DeleteRepoBranch(r.admin, r.repo, "scratch2")
		if err != nil {
			return err
		}
		if err := expect(ok, "not deleted"); err != nil {
			return err
		}
		_, resp, err := r.c.GetRepoBranch(r.admin, r.repo, "scratch2")
		return notFound(resp, err, "branch")
	})

	r.do("CreateBranchProtection", func() error {
		p, _, err := r.c.CreateBranchProtection(r.admin, r.repo, gitea.CreateBranchProtectionOption{RuleName: "release/*", EnablePush: true})
		if err != nil {
			return err
		}
		return expect(p.RuleName == "release/*" && p.EnablePush, "protection %+v", p)
	})
	r.do("GetBranchProtection", func() error {
		p, _, err := r.c.GetBranchProtection(r.admin, r.repo, "release/*")
		if err != nil {
			return err
		}
		return expect(p.RuleName == "release/*", "rule %q", p.RuleName)
	})
	r.do("EditBranchProtection", func() error {
		two := int64(2)
		p, _, err := r.c.EditBranchProtection(r.admin, r.repo, "release/*", gitea.EditBranchProtectionOption{RequiredApprovals: &two})
		if err != nil {
			return err
		}
		return expect(p.RequiredApprovals == 2, "approvals %d", p.RequiredApprovals)
	})
	r.do("ListBranchProtections", func() error {
		ps, _, err := r.c.ListBranchProtections(r.admin, r.repo, gitea.ListBranchProtectionsOptions{})
		if err != nil {
			return err
		}
		return expect(len(ps) == 1 && ps[0].RuleName == "release/*", "%d protections", len(ps))
	})
	r.do("DeleteBranchProtection", func() error {
		if _, err := r.c.DeleteBranchProtection(r.admin, r.repo, "release/*"); err != nil {
			return err
		}
		_, resp, err := r.c.GetBranchProtection(r.admin, r.repo, "release/*")
		return notFound(resp, err, "branch protection")
	})

	r.do("ListRepoCommits", func() error {
		cs, _, err := r.c.ListRepoCommits(r.admin, r.repo, gitea.ListCommitOptions{SHA: "main"})
		if err != nil {
			return err
		}
		return expect(len(cs) >= 4 && cs[0].SHA == mainSHA && cs[0].RepoCommit != nil, "%d commits, first %q", len(cs), cs[0].SHA)
	})
	r.do("GetSingleCommit", func() error {
		cm, _, err := r.c.GetSingleCommit(r.admin, r.repo, mainSHA)
		if err != nil {
			return err
		}
		return expect(cm.SHA == mainSHA && cm.RepoCommit.Message != "" && len(cm.Parents) == 1, "commit %q", cm.SHA)
	})
	r.do("GetCommitDiff", func() error {
		d, _, err := r.c.GetCommitDiff(r.admin, r.repo, mainSHA)
		if err != nil {
			return err
		}
		return expect(strings.HasPrefix(string(d), "diff --git "), "diff %.40q", d)
	})
	r.do("GetCommitPatch", func() error {
		d, _, err := r.c.GetCommitPatch(r.admin, r.repo, mainSHA)
		if err != nil {
			return err
		}
		return expect(strings.HasPrefix(string(d), "From "+mainSHA), "patch %.60q", d)
	})
	r.do("CompareCommits", func() error {
		cmp, _, err := r.c.CompareCommits(r.admin, r.repo, "main", "feature")
		if err != nil {
			return err
		}
		return expect(cmp.TotalCommits == 1 && len(cmp.Commits) == 1, "compare %d commits", cmp.TotalCommits)
	})

	var tag *gitea.Tag
	r.do("CreateTag", func() (err error) {
		tag, _, err = r.c.CreateTag(r.admin, r.repo, gitea.CreateTagOption{TagName: "v1.0.0", Message: "first", Target: "main"})
		if err != nil {
			return err
		}
		return expect(tag.Name == "v1.0.0" && tag.Commit != nil && tag.Commit.SHA == mainSHA, "tag %+v", tag)
	})
	r.do("GetTag", func() error {
		t, _, err := r.c.GetTag(r.admin, r.repo, "v1.0.0")
		if err != nil {
			return err
		}
		return expect(t.ID == tag.ID && strings.TrimSpace(t.Message) == "first", "tag %+v", t)
	})
	r.do("ListRepoTags", func() error {
		ts, _, err := r.c.ListRepoTags(r.admin, r.repo, gitea.ListRepoTagsOptions{})
		if err != nil {
			return err
		}
		return expect(len(ts) == 1 && ts[0].Name == "v1.0.0", "%d tags", len(ts))
	})
	r.do("GetAnnotatedTag", func() error {
		t, _, err := r.c.GetAnnotatedTag(r.admin, r.repo, tag.ID)
		if err != nil {
			return err
		}
		return expect(t.Tag == "v1.0.0" && t.Object != nil && t.Object.SHA == mainSHA, "annotated tag %+v", t)
	})
	r.do("GetRepoRef", func() error {
		ref, _, err := r.c.GetRepoRef(r.admin, r.repo, "heads/main")
		if err != nil {
			return err
		}
		return expect(ref.Ref == "refs/heads/main" && ref.Object.SHA == mainSHA, "ref %+v", ref)
	})
	r.do("GetRepoRefs", func() error {
		refs, _, err := r.c.GetRepoRefs(r.admin, r.repo, "tags")
		if err != nil {
			return err
		}
		return expect(len(refs) == 1 && refs[0].Ref == "refs/tags/v1.0.0", "%d refs", len(refs))
	})
	r.do("ListAllGitRefs", func() error {
		refs, _, err := r.c.ListAllGitRefs(r.admin, r.repo)
		if err != nil {
			return err
		}
		return expect(len(refs) == 3, "%d refs (want main, feature, v1.0.0)", len(refs))
	})
	var blobSHA string
	r.do("GetTrees", func() error {
		tree, _, err := r.c.GetTrees(r.admin, r.repo, gitea.ListTreeOptions{Ref: "main", Recursive: true})
		if err != nil {
			return err
		}
		for _, e := range tree.Entries {
			if e.Path == "docs/guide.md" {
				blobSHA = e.SHA
			}
		}
		return expect(blobSHA != "", "no docs/guide.md among %d entries", len(tree.Entries))
	})
	r.do("GetBlob", func() error {
		b, _, err := r.c.GetBlob(r.admin, r.repo, blobSHA)
		if err != nil {
			return err
		}
		return expect(b.SHA == blobSHA && b.Encoding == "base64" && b.Content == b64("# Guide\n\nRead me.\n"), "blob %+v", b)
	})
	r.do("DeleteTag", func() error {
		if _, err := r.c.DeleteTag(r.admin, r.repo, "v1.0.0"); err != nil {
			return err
		}
		_, resp, err := r.c.GetTag(r.admin, r.repo, "v1.0.0")
		return notFound(resp, err, "tag")
	})

	r.do("CreateStatus", func() error {
		s, _, err := r.c.CreateStatus(r.admin, r.repo, mainSHA, gitea.CreateStatusOption{State: gitea.StatusSuccess,
			Context: "ci/sdk", Description: "all good", TargetURL: "https://ci.example.com/1"})
		if err != nil {
			return err
		}
		return expect(s.State == gitea.StatusSuccess && s.Context == "ci/sdk" && s.Creator != nil, "status %+v", s)
	})
	r.do("ListStatuses", func() error {
		ss, _, err := r.c.ListStatuses(r.admin, r.repo, mainSHA, gitea.ListStatusesOption{})
		if err != nil {
			return err
		}
		return expect(len(ss) == 1 && ss[0].State == gitea.StatusSuccess, "%d statuses", len(ss))
	})
	r.do("GetCombinedStatus", func() error {
		cs, _, err := r.c.GetCombinedStatus(r.admin, r.repo, "main")
		if err != nil {
			return err
		}
		return expect(cs.State == gitea.StatusSuccess && cs.SHA == mainSHA && cs.TotalCount == 1, "combined %+v", cs)
	})
}
