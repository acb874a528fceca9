#version 330 core
// The rendered frame, already 8-bit; nearest filtering keeps pixels exact at 1:1.
in vec2 uv;
uniform sampler2D frame;
out vec4 color;
void main() {
    color = vec4(texture(frame, uv).rgb, 1.0);
}
