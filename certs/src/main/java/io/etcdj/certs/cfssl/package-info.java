/**
 * cfssl compatibility: reads cfssl's JSON certificate requests ({@code ca-csr.json},
 * {@code req-csr.json}) and signing configurations ({@code ca-config.json} with profiles), signs
 * through {@link io.etcdj.certs.CertificateAuthority}, and writes what
 * {@code cfssl gencert | cfssljson -bare NAME} writes. Owns the JSON formats and their error
 * texts only; all certificate building stays in {@code io.etcdj.certs}.
 */
package io.etcdj.certs.cfssl;
