-- Two people for money (docs/rewards.md, "Two people for money"): a settlement run or a batch finalize above
-- SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS needs a control-plane request approved by a second rewards admin. The
-- requests table gains the two actions; the previous release's code never files them, so it runs on this schema.
ALTER TABLE control_plane_requests DROP CONSTRAINT control_plane_requests_action_check;
ALTER TABLE control_plane_requests ADD CONSTRAINT control_plane_requests_action_check
  CHECK (action IN ('governance.activate', 'governance.emergency.apply', 'governance.emergency.clear', 'settlement.run', 'batch.finalize'));
