package main

import (
	"slices"

	"code.gitea.io/sdk/gitea"
)

// issues: labels, milestones, issues, comments, the timeline, locking. Leaves issue #1 open for notifications.
func (r *Run) issues() {
	var bug, doc *gitea.Label
	r.do("CreateLabel", func() (err error) {
		bug, _, err = r.c.CreateLabel(r.admin, r.repo, gitea.CreateLabelOption{Name: "bug", Color: "#ee0701", Description: "broken"})
		if err != nil {
			return err
		}
		return expect(bug.Name == "bug" && bug.Color == "ee0701", "label %+v", bug)
	})
	r.do("CreateLabel", func() (err error) {
		doc, _, err = r.c.CreateLabel(r.admin, r.repo, gitea.CreateLabelOption{Name: "docs", Color: "0075ca"})
		return err
	})
	r.do("GetRepoLabel", func() error {
		l, _, err := r.c.GetRepoLabel(r.admin, r.repo, bug.ID)
		if err != nil {
			return err
		}
		return expect(l.Name == "bug" && l.Description == "broken", "label %+v", l)
	})
	r.do("EditLabel", func() error {
		desc := "something is broken"
		l, _, err := r.c.EditLabel(r.admin, r.repo, bug.ID, gitea.EditLabelOption{Description: &desc})
		if err != nil {
			return err
		}
		return expect(l.Description == desc && l.Name == "bug", "label %+v", l)
	})
	r.do("ListRepoLabels", func() error {
		ls, _, err := r.c.ListRepoLabels(r.admin, r.repo, gitea.ListLabelsOptions{})
		if err != nil {
			return err
		}
		return expect(len(ls) == 2, "%d labels", len(ls))
	})

	var ms *gitea.Milestone
	r.do("CreateMilestone", func() (err error) {
		ms, _, err = r.c.CreateMilestone(r.admin, r.repo, gitea.CreateMilestoneOption{Title: "v1", Description: "first"})
		if err != nil {
			return err
		}
		return expect(ms.Title == "v1" && ms.State == gitea.StateOpen, "milestone %+v", ms)
	})
	r.do("GetMilestone", func() error {
		m, _, err := r.c.GetMilestone(r.admin, r.repo, ms.ID)
		if err != nil {
			return err
		}
		return expect(m.Title == "v1", "milestone %q", m.Title)
	})
	r.do("GetMilestoneByName", func() error {
		m, _, err := r.c.GetMilestoneByName(r.admin, r.repo, "v1")
		if err != nil {
			return err
		}
		return expect(m.ID == ms.ID, "milestone %d", m.ID)
	})
	r.do("EditMilestone", func() error {
		desc := "the first one"
		m, _, err := r.c.EditMilestone(r.admin, r.repo, ms.ID, gitea.EditMilestoneOption{Title: "v1", Description: &desc})
		if err != nil {
			return err
		}
		return expect(m.Description == desc, "description %q", m.Description)
	})
	r.do("EditMilestoneByName", func() error {
		closed := gitea.StateClosed
		m, _, err := r.c.EditMilestoneByName(r.admin, r.repo, "v1", gitea.EditMilestoneOption{Title: "v1", State: &closed})
		if err != nil {
			return err
		}
		return expect(m.State == gitea.StateClosed, "state %q", m.State)
	})
	r.do("ListRepoMilestones", func() error {
		ms2, _, err := r.c.ListRepoMilestones(r.admin, r.repo, gitea.ListMilestoneOption{State: gitea.StateAll})
		if err != nil {
			return err
		}
		return expect(len(ms2) == 1 && ms2[0].ID == ms.ID, "%d milestones", len(ms2))
	})

	var issue *gitea.Issue
	r.do("CreateIssue", func() (err error) {
		issue, _, err = r.c.CreateIssue(r.admin, r.repo, gitea.CreateIssueOption{Title: "It breaks", Body: "badly",
			Labels: []int64{bug.ID}, Assignees: []string{r.otherUser}, Milestone: ms.ID})
		if err != nil {
			return err
		}
		return expect(issue.Index == 1 && issue.Title == "It breaks" && len(issue.Labels) == 1 && len(issue.Assignees) == 1 &&
			issue.Milestone != nil && issue.Milestone.ID == ms.ID, "issue %+v", issue)
	})
	r.do("GetIssue", func() error {
		i, _, err := r.c.GetIssue(r.admin, r.repo, issue.Index)
		if err != nil {
			return err
		}
		return expect(i.ID == issue.ID && i.Body == "badly" && i.State == gitea.StateOpen, "issue %+v", i)
	})
	r.do("EditIssue", func() error {
		body := "very badly"
		i, _, err := r.c.EditIssue(r.admin, r.repo, issue.Index, gitea.EditIssueOption{Body: &body})
		if err != nil {
			return err
		}
		return expect(i.Body == body && i.Title == "It breaks", "issue %q %q", i.Title, i.Body)
	})
	r.do("ListRepoIssues", func() error {
		is, _, err := r.c.ListRepoIssues(r.admin, r.repo, gitea.ListIssueOption{Type: gitea.IssueTypeIssue, State: gitea.StateOpen})
		if err != nil {
			return err
		}
		return expect(len(is) == 1 && is[0].ID == issue.ID, "%d issues", len(is))
	})

	r.do("AddIssueLabels", func() error {
		ls, _, err := r.c.AddIssueLabels(r.admin, r.repo, issue.Index, gitea.IssueLabelsOption{Labels: []int64{doc.ID}})
		if err != nil {
			return err
		}
		return expect(len(ls) == 2, "%d labels", len(ls))
	})
	r.do("GetIssueLabels", func() error {
		ls, _, err := r.c.GetIssueLabels(r.admin, r.repo, issue.Index, gitea.ListLabelsOptions{})
		if err != nil {
			return err
		}
		return expect(len(ls) == 2, "%d labels", len(ls))
	})
	r.do("DeleteIssueLabel", func() error {
		if _, err := r.c.DeleteIssueLabel(r.admin, r.repo, issue.Index, doc.ID); err != nil {
			return err
		}
		ls, _, err := r.c.GetIssueLabels(r.admin, r.repo, issue.Index, gitea.ListLabelsOptions{})
		if err != nil {
			return err
		}
		return expect(len(ls) == 1 && ls[0].ID == bug.ID, "%d labels", len(ls))
	})
	r.do("ReplaceIssueLabels", func() error {
		ls, _, err := r.c.ReplaceIssueLabels(r.admin, r.repo, issue.Index, gitea.IssueLabelsOption{Labels: []int64{doc.ID}})
		if err != nil {
			return err
		}
		return expect(len(ls) == 1 && ls[0].ID == doc.ID, "labels %v", ls)
	})
	r.do("ClearIssueLabels", func() error {
		if _, err := r.c.ClearIssueLabels(r.admin, r.repo, issue.Index); err != nil {
			return err
		}
		ls, _, err := r.c.GetIssueLabels(r.admin, r.repo, issue.Index, gitea.ListLabelsOptions{})
		if err != nil {
			return err
		}
		return expect(len(ls) == 0, "%d labels", len(ls))
	})

	var comment *gitea.Comment
	r.do("CreateIssueComment", func() (err error) {
		comment, _, err = r.c.CreateIssueComment(r.admin, r.repo, issue.Index, gitea.CreateIssueCommentOption{Body: "me too"})
		if err != nil {
			return err
		}
		return expect(comment.Body == "me too" && comment.Poster != nil && comment.Poster.UserName == r.admin, "comment %+v", comment)
	})
	r.do("GetIssueComment", func() error {
		cm, _, err := r.c.GetIssueComment(r.admin, r.repo, comment.ID)
		if err != nil {
			return err
		}
		return expect(cm.Body == "me too", "comment %q", cm.Body)
	})
	r.do("EditIssueComment", func() error {
		cm, _, err := r.c.EditIssueComment(r.admin, r.repo, comment.ID, gitea.EditIssueCommentOption{Body: "me three"})
		if err != nil {
			return err
		}
		return expect(cm.Body == "me three", "comment %q", cm.Body)
	})
	r.do("ListIssueComments", func() error {
		cs, _, err := r.c.ListIssueComments(r.admin, r.repo, issue.Index, gitea.ListIssueCommentOptions{})
		if err != nil {
			return err
		}
		return expect(len(cs) == 1 && cs[0].ID == comment.ID, "%d comments", len(cs))
	})
	r.do("ListIssueTimeline", func() error {
		tl, _, err := r.c.ListIssueTimeline(r.admin, r.repo, issue.Index, gitea.ListIssueCommentOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(tl, func(t *gitea.TimelineComment) bool { return t.ID == comment.ID && t.Type == "comment" }),
			"comment not in a timeline of %d", len(tl))
	})
	r.do("DeleteIssueComment", func() error {
		if _, err := r.c.DeleteIssueComment(r.admin, r.repo, comment.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetIssueComment(r.admin, r.repo, comment.ID)
		return notFound(resp, err, "comment")
	})

	r.do("LockIssue", func() error {
		if _, err := r.c.LockIssue(r.admin, r.repo, issue.Index, gitea.LockIssueOption{LockReason: "too heated"}); err != nil {
			return err
		}
		i, _, err := r.c.GetIssue(r.admin, r.repo, issue.Index)
		if err != nil {
			return err
		}
		return expect(i.IsLocked, "not locked")
	})
	r.do("UnlockIssue", func() error {
		if _, err := r.c.UnlockIssue(r.admin, r.repo, issue.Index); err != nil {
			return err
		}
		i, _, err := r.c.GetIssue(r.admin, r.repo, issue.Index)
		if err != nil {
			return err
		}
		return expect(!i.IsLocked, "still locked")
	})

	r.do("DeleteLabel", func() error {
		if _, err := r.c.DeleteLabel(r.admin, r.repo, doc.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetRepoLabel(r.admin, r.repo, doc.ID)
		return notFound(resp, err, "label")
	})
	r.do("DeleteMilestoneByName", func() error {
		m, _, err := r.c.CreateMilestone(r.admin, r.repo, gitea.CreateMilestoneOption{Title: "v2"})
		if err != nil {
			return err
		}
		if _, err := r.c.DeleteMilestoneByName(r.admin, r.repo, "v2"); err != nil {
			return err
		}
		_, resp, err := r.c.GetMilestone(r.admin, r.repo, m.ID)
		return notFound(resp, err, "milestone")
	})
	r.do("DeleteMilestone", func() error {
		if _, err := r.c.DeleteMilestone(r.admin, r.repo, ms.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetMilestone(r.admin, r.repo, ms.ID)
		return notFound(resp, err, "milestone")
	})
}
