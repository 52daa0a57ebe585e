-- Question: for each tool the claims cite as evidence, how were those claims verified?
-- Run:      psql -h <host> -d <database> -U <login> -f db/queries/labels_per_tool.sql
-- Reads:    claimguard.verification_labels_by_tool (needs claimguard_reader), one column per V2 label.
-- Note:     a claim citing two tools counts under each; tool_name NULL is shown as '(no tool)'. "other" holds
--           labels that are not one of the six, and claims without a label.
SELECT coalesce(tool_name, '(no tool)')                                                  AS tool,
       sum(claim_count)                                                                  AS claims,
       coalesce(sum(claim_count) FILTER (WHERE verification = 'direct_observation'), 0)   AS direct_observation,
       coalesce(sum(claim_count) FILTER (WHERE verification = 'reasonable_inference'), 0) AS reasonable_inference,
       coalesce(sum(claim_count) FILTER (WHERE verification = 'overstated'), 0)           AS overstated,
       coalesce(sum(claim_count) FILTER (WHERE verification = 'unsupported'), 0)          AS unsupported,
       coalesce(sum(claim_count) FILTER (WHERE verification = 'external_unknown'), 0)     AS external_unknown,
       coalesce(sum(claim_count) FILTER (WHERE verification = 'contradicted'), 0)         AS contradicted,
       coalesce(sum(claim_count) FILTER (
           WHERE verification IS NULL
              OR verification NOT IN ('direct_observation', 'reasonable_inference', 'overstated',
                                      'unsupported', 'external_unknown', 'contradicted')), 0)   AS other
FROM claimguard.verification_labels_by_tool
GROUP BY tool_name
ORDER BY claims DESC, tool_name NULLS LAST;
