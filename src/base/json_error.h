/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_error.h - what the readers of our JSON files say when jansson
 * fails: whether the text ended early (what a killed writer leaves), told
 * apart from other damage by jansson's error code where it has one.
 */
#ifndef OLTPMARK_ANALYSIS_JSON_ERROR_H
#define OLTPMARK_ANALYSIS_JSON_ERROR_H

#include <stdbool.h>

#include <jansson.h>

/* The input ended before the JSON did. false on jansson before 2.11. */
static inline bool json_error_cut_short(const json_error_t *jerr)
{
#if JANSSON_VERSION_HEX >= 0x020b00
	return json_error_code(jerr) == json_error_premature_end_of_input;
#else
	(void)jerr;
	return false;
#endif
}

#endif
