// How real servers and applications answer a path that does not exist, written after their default
// pages: nginx, Apache httpd, IIS 10, Express, Spring Boot (Whitelabel and JSON error), Laravel,
// Next.js, a WordPress theme that answers 200, Cloudflare and Sucuri block pages.

export const NGINX_404 = '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n';

export const APACHE_404 = `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">
<html><head>
<title>404 Not Found</title>
</head><body>
<h1>Not Found</h1>
<p>The requested URL was not found on this server.</p>
<hr>
<address>Apache/2.4.57 (Debian) Server at shop.example.nl Port 80</address>
</body></html>
`;

export const APACHE_403 = `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">
<html><head>
<title>403 Forbidden</title>
</head><body>
<h1>Forbidden</h1>
<p>You don't have permission to access this resource.</p>
<hr>
<address>Apache/2.4.57 (Debian) Server at shop.example.nl Port 80</address>
</body></html>
`;

export const IIS_404 = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"/>
<title>404 - File or directory not found.</title>
</head>
<body>
<div id="header"><h1>Server Error</h1></div>
<div id="content">
 <div class="content-container"><fieldset>
  <h2>404 - File or directory not found.</h2>
  <h3>The resource you are looking for might have been removed, had its name changed, or is temporarily unavailable.</h3>
 </fieldset></div>
</div>
</body>
</html>
`;

export const expressNotFound = (path: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Error</title>
</head>
<body>
<pre>Cannot GET ${path}</pre>
</body>
</html>
`;

export const springJsonError = (path: string) => JSON.stringify({ timestamp: new Date().toISOString().replace('Z', '+00:00'), status: 404, error: 'Not Found', path });

export const LARAVEL_404 = `<!DOCTYPE html>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <title>Not Found</title>
    </head>
    <body class="antialiased">
        <div class="flex items-center pt-8 sm:justify-start sm:pt-0">
            <div class="px-4 text-lg text-gray-500 border-r border-gray-400 tracking-wider">404</div>
            <div class="ml-4 text-lg text-gray-500 uppercase tracking-wider">Not Found</div>
        </div>
    </body>
</html>`;

export const NEXT_404 = `<!DOCTYPE html><html><head><meta charSet="utf-8"/><title>404: This page could not be found</title><script src="/_next/static/chunks/webpack-5c3f2a1b.js" defer=""></script></head><body><div id="__next"><div style="font-family:system-ui"><h1 class="next-error-h1">404</h1><div><h2>This page could not be found.</h2></div></div></div><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"statusCode":404}},"page":"/_error","query":{},"buildId":"k3Jd8s","nextExport":true,"isFallback":false,"gip":true,"scriptLoader":[]}</script></body></html>`;

/** A WordPress theme's 404 that answers 200 and echoes the path, a timestamp and a fresh nonce. */
export const themeNotFound = (path: string, nonce: string) => `<!DOCTYPE html>
<html lang="nl-NL"><head><meta charset="UTF-8"><title>Pagina niet gevonden - Shop</title>
<script nonce="${nonce}">var shop = {"ajaxurl":"\\/wp-admin\\/admin-ajax.php","nonce":"${nonce.slice(0, 10)}"};</script></head>
<body class="error404"><h1>Oeps! Die pagina bestaat niet.</h1>
<p>We konden <code>${path}</code> niet vinden. Gegenereerd op ${new Date().toISOString()} in 0.${Math.floor(Math.random() * 1000)} seconden.</p>
<!-- cache: miss ${nonce} --></body></html>`;

export const cloudflareBlock = (rayId: string) => `<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<!--[if gt IE 8]><!--> <html class="no-js" lang="en-US"> <!--<![endif]-->
<head>
<title>Attention Required! | Cloudflare</title>
</head>
<body>
  <div id="cf-wrapper">
    <h1 data-translate="block_headline">Sorry, you have been blocked</h1>
    <span data-translate="error">Error</span><span>1020</span>
    <p>Cloudflare Ray ID: <strong class="font-semibold">${rayId}</strong></p>
  </div>
</body>
</html>`;

export const sucuriBlock = (incident: string) => `<!DOCTYPE html>
<html lang="en"><head><title>Sucuri WebSite Firewall - Access Denied</title></head>
<body><div id="main-container"><h2>Access Denied - Sucuri Website Firewall</h2>
<table><tr><td>Block ID:</td><td>RFI01</td></tr><tr><td>Block reason:</td><td>An attempted RFI/LFI was detected and blocked.</td></tr>
<tr><td>Time:</td><td>${new Date().toUTCString()}</td></tr><tr><td>Incident:</td><td>${incident}</td></tr></table></div></body></html>`;
