/* SPDX-License-Identifier: MIT */
#ifndef RESIDENT_ROS_H
#define RESIDENT_ROS_H

#include "php.h"

/* #[Resident\RequestOverStatic]: see internal.h. */

/* Registers the attribute (validator) and the class-linked observer. */
/* immediate: resident.request_over_static_immediate (ros/immediate.c). */
void ros_module_start(zend_class_entry *attribute_ce, const char *listed_classes, bool observe, bool immediate);
void ros_module_end(void);
/* A php-fpm pool's own resident.request_over_static_classes (php_admin_value,
 * applied in its workers after MINIT): parsed again when it differs. */
void ros_listed_classes_update(const char *listed_classes);
/* Whether the list in use was parsed from that setting. */
bool ros_listed_classes_are(const char *listed_classes);
/* active: this request restores and publishes static state. */
void ros_request_start(bool active);
/* Publishes what changed; must run while statics are intact (RSHUTDOWN). */
void ros_request_end(void);
/* Drops the snapshots of one class (NULL: all); returns how many. */
zend_long ros_forget(zend_string *class_name);
/* The code stamp of a closure's file (ros/code.c): the value layer's
 * rv_context.code_stamp. */
/* Deploys OPcache was told of (opcache_reset(), opcache_invalidate()) by
 * any worker of the master, and whether OPcache trusts files without
 * stat()ing them (validate_timestamps=0): ros/deploy.c. */
uint32_t ros_deploy_count(void);
bool ros_opcache_trusted(void);
/* opcache.enable, and opcache.enable_cli in the CLI, as they are now. */
bool ros_opcache_enabled(void);
/* "file|mtime|size" (ros/units.c), what OPcache's stat() compares. */
zend_string *ros_stat_identity(zend_string *file, bool persistent);
struct rv_code_stamp;
const char *ros_code_stamp(zend_string *file, struct rv_code_stamp *out, bool storing);
/* Cache::status()'s "request_over_static" section. */
void ros_status(zval *out);

#endif
