package main

import (
	"fmt"
	"slices"
	"time"

	"code.gitea.io/sdk/gitea"
)

// waitFor polls cond until it holds (a condition, not a duration: the bound only stops a broken server hanging us).
func waitFor(what string, cond func() (bool, error)) error {
	for i := 0; i < 300; i++ {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("gave up waiting for %s", what)
}

// pulls: the pull request feature → main, its reviews (bob approves; the admin comments), update and merge.
func (r *Run) pulls() {
	var pr *gitea.PullRequest
	r.do("CreatePullRequest", func() (err error) {
		pr, _, err = r.c.CreatePullRequest(r.admin, r.repo, gitea.CreatePullRequestOption{Head: "feature", Base: "main",
			Title: "Add a feature", Body: "please"})
		if err != nil {
			return err
		}
		return expect(pr.Index > 0 && pr.Title == "Add a feature" && pr.Head != nil && pr.Head.Ref == "feature" &&
			pr.Base != nil && pr.Base.Ref == "main", "pull %+v", pr)
	})
	r.do("GetPullRequest", func() error {
		p, _, err := r.c.GetPullRequest(r.admin, r.repo, pr.Index)
		if err != nil {
			return err
		}
		return expect(p.ID == pr.ID && p.Body == "please" && p.State == gitea.StateOpen, "pull %+v", p)
	})
	r.do("GetPullRequestByBaseHead", func() error {
		p, _, err := r.c.GetPullRequestByBaseHead(r.admin, r.repo, "main", "feature")
		if err != nil {
			return err
		}
		return expect(p.ID == pr.ID, "pull %d", p.ID)
	})
	r.do("ListRepoPullRequests", func() error {
		ps, _, err := r.c.ListRepoPullRequests(r.admin, r.repo, gitea.ListPullRequestsOptions{State: gitea.StateOpen})
		if err != nil {
			return err
		}
		return expect(len(ps) == 1 && ps[0].ID == pr.ID, "%d pulls", len(ps))
	})
	r.do("EditPullRequest", func() error {
		body := "please, now"
		p, _, err := r.c.EditPullRequest(r.admin, r.repo, pr.Index, gitea.EditPullRequestOption{Body: &body})
		if err != nil {
			return err
		}
		return expect(p.Body == body && p.Title == "Add a feature", "pull %q %q", p.Title, p.Body)
	})
	r.do("ListPullRequestCommits", func() error {
		cs, _, err := r.c.ListPullRequestCommits(r.admin, r.repo, pr.Index, gitea.ListPullRequestCommitsOptions{})
		if err != nil {
			return err
		}
		return expect(len(cs) == 1 && cs[0].SHA == pr.Head.Sha, "%d commits", len(cs))
	})
	r.do("ListPullRequestFiles", func() error {
		fs, _, err := r.c.ListPullRequestFiles(r.admin, r.repo, pr.Index, gitea.ListPullRequestFilesOptions{})
		if err != nil {
			return err
		}
		return expect(len(fs) == 1 && fs[0].Filename == "feature.txt" && fs[0].Status == "added", "files %v", fs)
	})

	r.do("CreateReviewRequests", func() error {
		return status2(r.c.CreateReviewRequests(r.admin, r.repo, pr.Index, gitea.PullReviewRequestOptions{Reviewers: []string{r.otherUser}}))(201)
	})
	r.do("DeleteReviewRequests", func() error {
		return status2(r.c.DeleteReviewRequests(r.admin, r.repo, pr.Index, gitea.PullReviewRequestOptions{Reviewers: []string{r.otherUser}}))(204)
	})
	var approval *gitea.PullReview
	r.do("CreatePullReview", func() (err error) {
		approval, _, err = r.other.CreatePullReview(r.admin, r.repo, pr.Index, gitea.CreatePullReviewOptions{State: gitea.ReviewStateApproved, Body: "lgtm"})
		if err != nil {
			return err
		}
		return expect(approval.State == gitea.ReviewStateApproved && approval.Reviewer != nil && approval.Reviewer.UserName == r.otherUser,
			"review %+v", approval)
	})
	r.do("GetPullReview", func() error {
		rv, _, err := r.c.GetPullReview(r.admin, r.repo, pr.Index, approval.ID)
		if err != nil {
			return err
		}
		return expect(rv.Body == "lgtm" && rv.State == gitea.ReviewStateApproved, "review %+v", rv)
	})
	r.do("ListPullReviews", func() error {
		rs, _, err := r.c.ListPullReviews(r.admin, r.repo, pr.Index, gitea.ListPullReviewsOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(rs, func(x *gitea.PullReview) bool { return x.ID == approval.ID }), "approval not among %d", len(rs))
	})
	r.do("DismissPullReview", func() error {
		if _, err := r.c.DismissPullReview(r.admin, r.repo, pr.Index, approval.ID, gitea.DismissPullReviewOptions{Message: "stale"}); err != nil {
			return err
		}
		rv, _, err := r.c.GetPullReview(r.admin, r.repo, pr.Index, approval.ID)
		if err != nil {
			return err
		}
		return expect(rv.Dismissed, "not dismissed")
	})
	r.do("UnDismissPullReview", func() error {
		if _, err := r.c.UnDismissPullReview(r.admin, r.repo, pr.Index, approval.ID); err != nil {
			return err
		}
		rv, _, err := r.c.GetPullReview(r.admin, r.repo, pr.Index, approval.ID)
		if err != nil {
			return err
		}
		return expect(!rv.Dismissed, "still dismissed")
	})
	var pending *gitea.PullReview
	r.do("CreatePullReview", func() (err error) {
		pending, _, err = r.c.CreatePullReview(r.admin, r.repo, pr.Index, gitea.CreatePullReviewOptions{State: gitea.ReviewStatePending,
			Comments: []gitea.CreatePullReviewComment{{Path: "feature.txt", Body: "why?", NewLineNum: 1}}})
		if err != nil {
			return err
		}
		return expect(pending.State == gitea.ReviewStatePending && pending.CodeCommentsCount == 1, "review %+v", pending)
	})
	r.do("ListPullReviewComments", func() error {
		cs, _, err := r.c.ListPullReviewComments(r.admin, r.repo, pr.Index, pending.ID)
		if err != nil {
			return err
		}
		return expect(len(cs) == 1 && cs[0].Body == "why?" && cs[0].Path == "feature.txt", "comments %v", cs)
	})
	r.do("DeletePullReview", func() error {
		if _, err := r.c.DeletePullReview(r.admin, r.repo, pr.Index, pending.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetPullReview(r.admin, r.repo, pr.Index, pending.ID)
		return notFound(resp, err, "review")
	})
	r.do("SubmitPullReview", func() error {
		p, _, err := r.c.CreatePullReview(r.admin, r.repo, pr.Index, gitea.CreatePullReviewOptions{State: gitea.ReviewStatePending, Body: "notes"})
		if err != nil {
			return err
		}
		rv, _, err := r.c.SubmitPullReview(r.admin, r.repo, pr.Index, p.ID, gitea.SubmitPullReviewOptions{State: gitea.ReviewStateComment, Body: "notes"})
		if err != nil {
			return err
		}
		return expect(rv.ID == p.ID && rv.State == gitea.ReviewStateComment, "review %+v", rv)
	})

	// main moves on; the pull request's branch is updated from it, then merged
	r.do("UpdatePullRequest", func() error {
		if _, _, err := r.c.CreateFile(r.admin, r.repo, "later.txt", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{Message: "main moves on", BranchName: "main"}, Content: b64("later\n")}); err != nil {
			return fmt.Errorf("preparing: %w", err)
		}
		if _, err := r.c.UpdatePullRequest(r.admin, r.repo, pr.Index); err != nil {
			return err
		}
		cs, _, err := r.c.ListPullRequestCommits(r.admin, r.repo, pr.Index, gitea.ListPullRequestCommitsOptions{})
		if err != nil {
			return err
		}
		return expect(len(cs) == 2, "%d commits after the update (want the feature and the merge of main)", len(cs))
	})
	r.do("MergePullRequest", func() error {
		if err := waitFor("the pull request to be mergeable", func() (bool, error) {
			p, _, err := r.c.GetPullRequest(r.admin, r.repo, pr.Index)
			return err == nil && p.Mergeable, err
		}); err != nil {
			return err
		}
		ok, resp, err := r.c.MergePullRequest(r.admin, r.repo, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
		if err != nil {
			return err
		}
		return expect(ok, "not merged: status %d", resp.StatusCode)
	})
	r.do("IsPullRequestMerged", func() error {
		ok, _, err := r.c.IsPullRequestMerged(r.admin, r.repo, pr.Index)
		if err != nil {
			return err
		}
		return expect(ok, "not merged")
	})
}
