-- SPDX-License-Identifier: GPL-2.0-or-later
-- oltpmark_meta: one row describing the loaded population. The loader
-- inserts it with status 'loading' in its first transaction and sets
-- 'loaded' only after keys, functions and ANALYZE are done, so a load that
-- failed or was interrupted is recognisable, and run/check refuse it.
-- c_load_c_last is what `oltpmark run` needs to draw its C-Run
-- (docs/tpcc.md, Random numbers). layout says how the relations are spread
-- over tablespaces and layout_map where each went, down to the block
-- devices, as JSON (docs/layout.md; the format is in docs/formats.md).

CREATE TABLE oltpmark_meta (
	status          text        NOT NULL CHECK (status IN ('loading', 'loaded')),
	warehouses      integer     NOT NULL,
	c_load_c_last   integer     NOT NULL, -- C-Load for NURand(255,0,999), clause 2.1.6.1
	seed            bigint      NOT NULL, -- the loader's --seed, to reproduce a load
	version         text        NOT NULL, -- oltpmark version that loaded it
	load_started    timestamptz NOT NULL,
	load_finished   timestamptz,
	layout          text        NOT NULL DEFAULT 'single'
	                CHECK (layout IN ('single', 'table', 'warehouse')),
	layout_map      text        -- JSON, written when the load finished
);
