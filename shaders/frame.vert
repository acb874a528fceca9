#version 330 core
// A full-viewport quad from gl_VertexID alone (no vertex buffer): 0..3 as a triangle strip.
out vec2 uv;
void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    uv = corner;
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
