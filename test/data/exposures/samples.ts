// Real-format samples of what exposed files and endpoints look like when servers serve them, written
// for this project after the formats' sources: php-src ext/standard/info.c (phpinfo), Apache httpd
// mod_status and mod_autoindex, nginx autoindex and stub_status, IIS directory browsing, Spring Boot
// actuator 1.x (/env, /heapdump) and 2.x+ (/actuator/env, HPROF), springfox and springdoc OpenAPI,
// WordPress core REST users (with Yoast SEO's yoast_head) and IXR xmlrpc.php, Laravel's log,
// mysqldump, pg_dump and phpMyAdmin dumps, git and Apache htpasswd. Values are invented; shapes,
// field order, escaping and sizes follow the real thing (several exceed the 16 KiB probe cap).

const repeat = (count: number, item: (i: number) => string, separator = '') => Array.from({ length: count }, (_, i) => item(i)).join(separator);

/** PHP 8.3 phpinfo() as Debian's php8.3-fpm prints it: style block, logo, then the tables (~90 KB). */
export const PHPINFO_8 = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head>
<style type="text/css">
body {background-color: #fff; color: #222; font-family: sans-serif;}
pre {margin: 0; font-family: monospace;}
a:link {color: #009; text-decoration: none; background-color: #fff;}
table {border-collapse: collapse; border: 0; width: 934px; box-shadow: 1px 2px 3px rgba(0, 0, 0, 0.2);}
.center {text-align: center;}
.e {background-color: #ccf; width: 300px; font-weight: bold;}
.h {background-color: #99c; font-weight: bold;}
.v {background-color: #ddd; max-width: 300px; overflow-x: auto; word-wrap: break-word;}
</style>
<title>PHP 8.3.4 - phpinfo()</title><meta name="ROBOTS" content="NOINDEX,NOFOLLOW,NOARCHIVE" /></head>
<body><div class="center">
<table>
<tr class="h"><td>
<a href="https://www.php.net/"><img src="data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAHkAAABACAYAAAA'.repeat(300)}" alt="PHP logo" /></a><h1 class="p">PHP Version 8.3.4</h1>
</td></tr>
</table>
<table>
<tr><td class="e">System </td><td class="v">Linux web01 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 x86_64 </td></tr>
<tr><td class="e">Build Date </td><td class="v">Mar 16 2024 08:43:29 </td></tr>
<tr><td class="e">Server API </td><td class="v">FPM/FastCGI </td></tr>
<tr><td class="e">Loaded Configuration File </td><td class="v">/etc/php/8.3/fpm/php.ini </td></tr>
${repeat(900, (i) => `<tr><td class="e">directive_${i}</td><td class="v">value ${i}</td><td class="v">value ${i}</td></tr>`, '\n')}
</table>
</div></body></html>`;

/** PHP 8 with expose_php off: no banner, the version only as a table row. */
export const PHPINFO_8_NO_BANNER = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Info</title></head><body><div class="center">
<table>
<tr><td class="e">PHP Version </td><td class="v">8.2.18 </td></tr>
<tr><td class="e">System </td><td class="v">Linux app 5.15.0 x86_64 </td></tr>
</table></div></body></html>`;

export const APACHE_SERVER_STATUS = `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">
<html><head>
<title>Apache Status</title>
</head><body>
<h1>Apache Server Status for shop.example.nl (via 10.0.0.5)</h1>

<dl><dt>Server Version: Apache/2.4.57 (Debian) OpenSSL/3.0.11</dt>
<dt>Server MPM: event</dt>
<dt>Server Built: 2023-04-13T03:26:51
</dt></dl><hr /><dl>
<dt>Current Time: Monday, 15-Jan-2024 10:00:00 UTC</dt>
<dt>Restart Time: Sunday, 14-Jan-2024 02:00:01 UTC</dt>
<dt>Server uptime:  1 day 7 hours 59 minutes 59 seconds</dt>
<dt>Total accesses: 48213 - Total Traffic: 1.2 GB</dt>
</dl><pre>_W__K_____.......</pre>
</body></html>`;

export const NGINX_STUB_STATUS = 'Active connections: 3 \nserver accepts handled requests\n 10482 10482 38211 \nReading: 0 Writing: 1 Waiting: 2 \n';

export const APACHE_AUTOINDEX = `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">
<html>
 <head>
  <title>Index of /uploads</title>
 </head>
 <body>
<h1>Index of /uploads</h1>
  <table>
   <tr><th valign="top"><img src="/icons/blank.gif" alt="[ICO]"></th><th><a href="?C=N;O=D">Name</a></th><th><a href="?C=M;O=A">Last modified</a></th><th><a href="?C=S;O=A">Size</a></th></tr>
   <tr><th colspan="4"><hr></th></tr>
<tr><td valign="top"><img src="/icons/back.gif" alt="[PARENTDIR]"></td><td><a href="/">Parent Directory</a></td><td>&nbsp;</td><td align="right">  - </td></tr>
<tr><td valign="top"><img src="/icons/image2.gif" alt="[IMG]"></td><td><a href="factuur-2024.pdf">factuur-2024.pdf</a></td><td align="right">2024-01-15 10:00  </td><td align="right"> 88K</td></tr>
   <tr><th colspan="4"><hr></th></tr>
</table>
<address>Apache/2.4.57 (Debian) Server at shop.example.nl Port 80</address>
</body></html>
`;

export const NGINX_AUTOINDEX = `<html>
<head><title>Index of /files/</title></head>
<body>
<h1>Index of /files/</h1><hr><pre><a href="../">../</a>
<a href="export.csv">export.csv</a>                                         15-Jan-2024 10:00               12345
</pre><hr></body>
</html>
`;

export const IIS_DIRECTORY_BROWSING = `<html><head><title>www.example.nl - /backup/</title></head><body><H1>www.example.nl - /backup/</H1><hr>

<pre><A HREF="/">[To Parent Directory]</A><br><br> 1/15/2024 10:00 AM        &lt;dir&gt; <A HREF="/backup/archief/">archief</A><br> 1/15/2024 10:02 AM        48213 <A HREF="/backup/site.bak">site.bak</A><br></pre><hr></body></html>`;

/** Spring Boot 1.5 /env (application/vnd.spring-boot.actuator.v1+json). */
export const ACTUATOR_1_ENV = JSON.stringify({
  profiles: [],
  'server.ports': { 'local.server.port': 8080 },
  servletContextInitParams: {},
  systemProperties: { 'java.runtime.name': 'OpenJDK Runtime Environment', 'java.vm.version': '25.392-b08', 'user.dir': '/app' },
  systemEnvironment: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin', HOSTNAME: 'shop-7d9f', JAVA_HOME: '/usr/lib/jvm/java-8-openjdk-amd64' },
  'applicationConfig: [classpath:/application.properties]': { 'spring.datasource.url': 'jdbc:mysql://db:3306/shop', 'spring.datasource.password': '******' },
});

/** Spring Boot 3 /actuator/env (application/vnd.spring-boot.actuator.v3+json). */
export const ACTUATOR_3_ENV = JSON.stringify({
  activeProfiles: ['prod'],
  propertySources: [
    { name: 'server.ports', properties: { 'local.server.port': { value: 8080 } } },
    { name: 'systemEnvironment', properties: { JAVA_HOME: { value: '/opt/java/openjdk', origin: 'System Environment Property "JAVA_HOME"' } } },
  ],
});

export const HPROF = Buffer.concat([Buffer.from('JAVA PROFILE 1.0.2\0', 'latin1'), Buffer.from([0, 0, 0, 8, 0, 0, 1, 0x8d, 0x1a, 0x2b, 0x3c, 0x4d, 0x01, 0, 0, 0, 0])]);

const operation = (i: number) =>
  `"/api/v1/resource${i}":{"get":{"tags":["resource-controller"],"operationId":"getResource${i}","parameters":[{"name":"id","in":"query","required":true,"schema":{"type":"integer","format":"int64"}}],"responses":{"200":{"description":"OK","content":{"*/*":{"schema":{"$ref":"#/components/schemas/Resource${i}"}}}}}}}`;

/** springdoc-openapi /v3/api-docs of a mid-sized service: about 150 KB. */
export const SPRINGDOC_OPENAPI = `{"openapi":"3.0.1","info":{"title":"OpenAPI definition","version":"v0"},"servers":[{"url":"http://localhost:8080","description":"Generated server url"}],"paths":{${repeat(400, operation, ',')}},"components":{}}`;

/** springfox /v2/api-docs (Swagger 2.0), whose tags list comes before the paths. */
export const SPRINGFOX_SWAGGER = `{"swagger":"2.0","info":{"description":"Api Documentation","version":"1.0","title":"Api Documentation","termsOfService":"urn:tos","contact":{},"license":{"name":"Apache 2.0","url":"http://www.apache.org/licenses/LICENSE-2.0"}},"host":"localhost:8080","basePath":"/","tags":[${repeat(300, (i) => `{"name":"controller-${i}","description":"Controller ${i}"}`, ',')}],"paths":{}}`;

const wpUser = (id: number) =>
  `{"id":${id},"name":"Redacteur ${id}","url":"","description":"","link":"https:\\/\\/shop.example.nl\\/author\\/redacteur-${id}\\/","slug":"redacteur-${id}","avatar_urls":{"24":"https:\\/\\/secure.gravatar.com\\/avatar\\/${'0'.repeat(32)}?s=24&d=mm&r=g","48":"https:\\/\\/secure.gravatar.com\\/avatar\\/${'0'.repeat(32)}?s=48&d=mm&r=g","96":"https:\\/\\/secure.gravatar.com\\/avatar\\/${'0'.repeat(32)}?s=96&d=mm&r=g"},"yoast_head":"<!-- This site is optimized with the Yoast SEO plugin v22.0 - https:\\/\\/yoast.com\\/wordpress\\/plugins\\/seo\\/ -->\\n<title>Redacteur ${id}, auteur op Shop<\\/title>\\n<meta name=\\"robots\\" content=\\"max-image-preview:large\\" \\/>\\n${'<meta property=\\"og:locale\\" content=\\"nl_NL\\" \\/>\\n'.repeat(40)}<!-- \\/ Yoast SEO plugin. -->","yoast_head_json":{"title":"Redacteur ${id}, auteur op Shop","robots":{"index":"index","follow":"follow"},"og_locale":"nl_NL"},"meta":[],"_links":{"self":[{"href":"https:\\/\\/shop.example.nl\\/wp-json\\/wp\\/v2\\/users\\/${id}"}],"collection":[{"href":"https:\\/\\/shop.example.nl\\/wp-json\\/wp\\/v2\\/users"}]}}`;

/** /wp-json/wp/v2/users of WordPress 6.4 with Yoast SEO: ~4 KB a user, 10 users a page. */
export const WORDPRESS_USERS = `[${repeat(10, (i) => wpUser(i + 1), ',')}]`;

export const WORDPRESS_XMLRPC_GET = 'XML-RPC server accepts POST requests only.';

export const WORDPRESS_DEBUG_LOG = `[15-Jan-2024 10:00:00 UTC] PHP Deprecated:  Creation of dynamic property Foo::$bar is deprecated in /var/www/html/wp-content/plugins/shop/shop.php on line 42
[15-Jan-2024 10:00:01 UTC] PHP Warning:  Undefined array key "id" in /var/www/html/wp-content/themes/shop/functions.php on line 7
`;

export const LARAVEL_LOG = `[2024-01-15 10:00:00] production.ERROR: SQLSTATE[HY000] [2002] Connection refused (Connection: mysql, SQL: select * from \`sessions\` where \`id\` = abc limit 1) {"exception":"[object] (Illuminate\\\\Database\\\\QueryException(code: 2002): SQLSTATE[HY000] [2002] Connection refused at /var/www/vendor/laravel/framework/src/Illuminate/Database/Connection.php:822)
[stacktrace]
#0 /var/www/vendor/laravel/framework/src/Illuminate/Database/Connection.php(776): Illuminate\\\\Database\\\\Connection->runQueryCallback()
`;

export const LARAVEL_ENV = `APP_NAME=Shop
APP_ENV=production
APP_KEY=base64:2fl+Ktvkfl+Fuz4Qp/A75G2RTiWVA/ZoKZvp6fiiM10=
APP_DEBUG=false
APP_URL=https://shop.example.nl

DB_CONNECTION=mysql
DB_HOST=127.0.0.1
DB_PASSWORD=geheim
`;

/** A Vite/Rollup source map: sources and sourcesContent come before mappings (~120 KB). */
export const VITE_SOURCE_MAP = `{"version":3,"file":"index-4f1a2b3c.js","sources":["../../src/main.tsx","../../src/App.tsx"],"sourcesContent":["${"import React from 'react';\\nexport function App() { return null; }\\n".repeat(1800)}"],"names":["React","App"],"mappings":"AAAA,OAAO,WAAW"}`;

/** A webpack source map, which writes mappings second. */
export const WEBPACK_SOURCE_MAP = `{"version":3,"file":"static/js/main.8a1b2c3d.js","mappings":";;;;;;AAAA${',SAAS'.repeat(20000)}","sources":["webpack://shop/./src/index.js"],"sourcesContent":["console.log('shop')"],"names":[],"sourceRoot":""}`;

export const GIT_DETACHED_HEAD = '4b825dc642cb6eb9a060e54bf8d69288fbee4904\n';

/** htpasswd as Apache's htpasswd -d (DES crypt) and -m (apr1) write it. */
export const HTPASSWD = 'beheer:rOa9tGPtUq3R.\nredactie:$apr1$4lHq1/2e$Qz7r3UMhhlUzq6K0DZ2Tw/\n';

export const MYSQLDUMP = `-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)
--
-- Host: localhost    Database: shop
-- ------------------------------------------------------
-- Server version	8.0.36

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET NAMES utf8mb4 */;

DROP TABLE IF EXISTS \`wp_users\`;
CREATE TABLE \`wp_users\` (
  \`ID\` bigint unsigned NOT NULL AUTO_INCREMENT,
  \`user_login\` varchar(60) NOT NULL DEFAULT '',
  PRIMARY KEY (\`ID\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

LOCK TABLES \`wp_users\` WRITE;
INSERT INTO \`wp_users\` VALUES (1,'admin');
UNLOCK TABLES;
`;

export const PG_DUMP = `--
-- PostgreSQL database dump
--

-- Dumped from database version 15.5 (Debian 15.5-0+deb12u1)
-- Dumped by pg_dump version 15.5 (Debian 15.5-0+deb12u1)

SET statement_timeout = 0;
SET client_encoding = 'UTF8';

CREATE TABLE public.customers (
    id integer NOT NULL,
    email text NOT NULL
);

COPY public.customers (id, email) FROM stdin;
1	klant@example.nl
\\.
`;

export const PHPMYADMIN_DUMP = `-- phpMyAdmin SQL Dump
-- version 5.2.1
-- https://www.phpmyadmin.net/
--
-- Host: 127.0.0.1
-- Generation Time: Jan 15, 2024 at 10:00 AM

SET SQL_MODE = "NO_AUTO_VALUE_ON_ZERO";
START TRANSACTION;
`;

/** HTML pages that open with an error printed before the document: pages, not dumps. */
export const PHP_ERROR_BEFORE_HTML = `<br />
<b>Warning</b>:  mysqli_connect(): (HY000/2002): Connection refused in <b>/var/www/html/db.php</b> on line <b>5</b><br />
<!DOCTYPE html>
<html lang="nl"><head><title>Fout</title></head><body><p>Databasefout bij INSERT INTO orders (id) VALUES (1)</p>
<pre>
CREATE TABLE orders (id int);
INSERT INTO orders VALUES (1);
</pre></body></html>`;

export const SQL_ERROR_BEFORE_HTML = `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'INSERT INTO users' at line 1
<!DOCTYPE html>
<html><head><title>Shop</title></head><body>
DROP TABLE IF EXISTS sessions;
CREATE TABLE sessions (id text);
</body></html>`;
